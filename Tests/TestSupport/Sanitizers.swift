#if canImport(Darwin)
import Darwin

/// `RTLD_DEFAULT`, which Swift does not import: the search of every loaded image.
private let everyImage = -2
#elseif canImport(Glibc)
import Glibc

private let everyImage = 0
#elseif canImport(Musl)
import Musl

private let everyImage = 0
#endif

/// Whether the process runs instrumented by AddressSanitizer or ThreadSanitizer (`swift test --sanitize=…`), whose
/// slowdown (2× to 20×) a test's time limit must allow for: each one's runtime exports its entry point.
public enum Sanitizers {
    public static let areActive = ["__asan_init", "__tsan_init"].contains { (symbol: String) in
        dlsym(UnsafeMutableRawPointer(bitPattern: everyImage), symbol) != nil
    }

    /// How many times longer than in a plain build a test may take: 10 under a sanitizer, else 1.
    public static let slowdown = areActive ? 10 : 1
}
