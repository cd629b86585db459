/// A key of `idx browse`, decoded from the bytes a terminal in raw mode sends.
package enum BrowseKey: Equatable, Sendable {
    /// Typed text (one character, or several when pasted).
    case text(String)
    /// Backspace (DEL, 127, or Ctrl-H, 8).
    case backspace
    /// Enter (CR or LF).
    case enter
    /// The up arrow (`ESC [ A`, or `ESC O A` in application cursor mode).
    case up
    /// The down arrow (`ESC [ B` or `ESC O B`).
    case down
    /// Esc pressed alone, not the start of a sequence.
    case escape
    /// Ctrl-C, which raw mode delivers as byte 3 rather than as SIGINT.
    case interrupt
    /// Ctrl-U, which clears the input line.
    case clearLine
}

/// Turns the bytes read from a terminal into keys, keeping an incomplete sequence (a lone ESC, `ESC [`, part of a
/// UTF-8 character) until more bytes come.
///
/// A lone Esc and the start of an arrow sequence look the same until the next byte: after `feed` leaves `isPending`
/// set, the caller waits briefly for more bytes, then calls `flush`, which reads a pending ESC as the Esc key.
package struct BrowseKeyDecoder {
    private var pending: [UInt8] = []

    package init() {}

    /// Whether bytes of an unfinished sequence are waiting for more.
    package var isPending: Bool { !pending.isEmpty }

    /// The keys `bytes` complete, in order; control bytes without a meaning here are skipped.
    package mutating func feed(_ bytes: some Sequence<UInt8>) -> [BrowseKey] {
        pending.append(contentsOf: bytes)
        var keys: [BrowseKey] = []
        var at = 0
        while at < pending.count {
            guard let (key, length) = Self.decode(pending[at...]) else { break }
            if let key { Self.append(key, to: &keys) }
            at += length
        }
        pending.removeFirst(at)
        return keys
    }

    /// No more bytes came: a pending ESC is the Esc key, and whatever else is pending is dropped.
    package mutating func flush() -> [BrowseKey] {
        defer { pending = [] }
        return pending.first == 0x1B ? [.escape] : []
    }

    /// The key at the start of `bytes` and how many bytes it takes (a nil key for bytes to skip), or nil when
    /// `bytes` ends before the key does.
    private static func decode(_ bytes: ArraySlice<UInt8>) -> (key: BrowseKey?, length: Int)? {
        let first = bytes[bytes.startIndex]
        switch first {
        case 0x1B:
            let next = bytes.index(after: bytes.startIndex)
            guard next < bytes.endIndex else { return nil }
            guard bytes[next] == UInt8(ascii: "[") || bytes[next] == UInt8(ascii: "O") else { return (.escape, 1) }
            // A CSI or SS3 sequence runs to its final byte, 0x40–0x7E; parameters and intermediates come before.
            let body = bytes[bytes.index(after: next)...]
            guard let final = body.firstIndex(where: { (0x40...0x7E).contains($0) }) else { return nil }
            let length = final - bytes.startIndex + 1
            switch bytes[final] {
            case UInt8(ascii: "A"): return (.up, length)
            case UInt8(ascii: "B"): return (.down, length)
            default: return (nil, length)
            }
        case 3: return (.interrupt, 1)
        case 8, 127: return (.backspace, 1)
        case 10, 13: return (.enter, 1)
        case 21: return (.clearLine, 1)
        case 0..<0x20: return (nil, 1)
        case 0x20..<0x80: return (.text(String(UnicodeScalar(first))), 1)
        default:
            let length =
                switch first {
                case 0xC0..<0xE0: 2
                case 0xE0..<0xF0: 3
                case 0xF0..<0xF8: 4
                default: 1
                }
            guard bytes.count >= length else { return nil }
            let character = String(validating: bytes.prefix(length), as: UTF8.self)
            return (character.map(BrowseKey.text), length)
        }
    }

    /// Appends `key`, joining runs of text (a paste) into one key.
    private static func append(_ key: BrowseKey, to keys: inout [BrowseKey]) {
        if case .text(let more) = key, case .text(let text)? = keys.last {
            keys[keys.count - 1] = .text(text + more)
        } else {
            keys.append(key)
        }
    }
}
