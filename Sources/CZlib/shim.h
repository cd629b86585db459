// System zlib: zlib1g-dev on Debian/Ubuntu; part of every Apple SDK (usr/include/zlib.h, libz.tbd), so no path here.
// deflate/inflate for stored-field blocks and gzip corpora, crc32 for footers.
#include <zlib.h>
