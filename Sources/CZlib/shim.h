// System zlib (Debian zlib1g-dev): deflate/inflate for stored-field blocks and gzip corpora, crc32 for footers.
#include <zlib.h>
