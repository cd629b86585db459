import Foundation

/// Numbers as `idx` shows them to people (machine output goes through `JSONText`).
enum Format {
    /// `value` with `places` decimals, in the POSIX locale whatever the user's.
    static func decimal(_ value: Double, places: Int) -> String {
        String(format: "%.\(places)f", value)
    }

    /// Milliseconds with two decimals: `0.42 ms`.
    static func milliseconds(_ duration: Duration) -> String {
        decimal(duration.seconds * 1000, places: 2) + " ms"
    }

    /// Seconds with two decimals: `3.14 s`.
    static func seconds(_ duration: Duration) -> String {
        decimal(duration.seconds, places: 2) + " s"
    }

    /// A byte count in the largest unit that keeps it ≥ 1 (decimal units, as `ls -h --si`): `12.3 MB`.
    static func bytes(_ count: Int) -> String {
        let units = ["bytes", "kB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) bytes" : decimal(value, places: 1) + " " + units[unit]
    }

    /// Throughput of `bytes` over `duration`: `4.1 MB/s`.
    static func megabytesPerSecond(_ bytes: Int, _ duration: Duration) -> String {
        decimal(Double(bytes) / 1e6 / max(duration.seconds, 1e-9), places: 1) + " MB/s"
    }

    /// Per-second rate of `count` things over `duration`, rounded: `5210`.
    static func rate(_ count: Int, per duration: Duration) -> String {
        decimal(Double(count) / max(duration.seconds, 1e-9), places: 0)
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
