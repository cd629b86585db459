import Foundation
import LoupeCodec
import TestSupport

/// Random JSON values that exercise the parser's edges: every escape class, multi-byte UTF-8,
/// integers at the `Int64`/`UInt64` boundaries and arbitrary finite doubles.
struct JSONValueGenerator {
    var random: SplitMix64

    mutating func value(depth: Int = 0) -> JSONValue {
        let kinds = depth >= 4 ? 4 : 6
        switch Int.random(in: 0..<kinds, using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .number(number())
        case 3: return .string(string())
        case 4: return .array((0..<Int.random(in: 0...5, using: &random)).map { _ in value(depth: depth + 1) })
        default:
            // Unique keys, so that Foundation's dictionaries can be compared member by member.
            var keys = Set<[UInt8]>()
            for _ in 0..<Int.random(in: 0...5, using: &random) { keys.insert(string()) }
            return .object(
                keys.sorted { $0.lexicographicallyPrecedes($1) }.map {
                    JSONMember(key: $0, value: value(depth: depth + 1))
                })
        }
    }

    mutating func number() -> JSONNumber {
        switch Int.random(in: 0..<7, using: &random) {
        case 0: return JSONNumber(Int64.random(in: -1000...1000, using: &random))
        case 1: return JSONNumber(Int64.random(in: .min ... .max, using: &random))
        case 2: return JSONNumber(UInt64.random(in: UInt64(Int64.max) + 1 ... .max, using: &random))
        case 3: return JSONNumber([Int64.min, Int64.max, 0, -1].randomElement(using: &random) ?? 0)
        case 4: return JSONNumber(Double(Int.random(in: -100...100, using: &random)) / 4)
        case 5: return JSONNumber(Double.random(in: -1e6...1e6, using: &random))
        default:
            var bits = random.next()
            while !Double(bitPattern: bits).isFinite { bits = random.next() }
            return JSONNumber(Double(bitPattern: bits))
        }
    }

    mutating func string() -> [UInt8] {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...12, using: &random) {
            let value: UInt32
            switch Int.random(in: 0..<8, using: &random) {
            case 0: value = UInt32.random(in: 0..<0x20, using: &random)
            case 1: value = [0x22, 0x5C, 0x2F, 0x7F].randomElement(using: &random) ?? 0x22
            case 2: value = UInt32.random(in: 0x80..<0x800, using: &random)
            case 3: value = UInt32.random(in: 0x800..<0xD800, using: &random)
            case 4: value = UInt32.random(in: 0xE000...0xFFFF, using: &random)
            case 5: value = UInt32.random(in: 0x10000...0x10FFFF, using: &random)
            default: value = UInt32.random(in: 0x20..<0x7F, using: &random)
            }
            if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
        }
        return Array(String(scalars).utf8)
    }
}

extension JSONValue {
    /// Whether Foundation's `JSONSerialization` result `other` holds the same value.
    func matchesFoundation(_ other: Any) -> Bool {
        switch self {
        case .null:
            return other is NSNull
        case .bool(let bool):
            return (other as? Bool) == bool
        case .number(let number):
            guard let foundation = other as? NSNumber else { return false }
            if let value = number.int64 { return foundation.int64Value == value }
            if let value = number.uint64 { return foundation.uint64Value == value }
            // Foundation on Linux reads long literals as `NSDecimalNumber`, whose `doubleValue` can be
            // a few ulps off; its decimal text, converted once, is the value it actually read.
            if foundation is NSDecimalNumber, let exact = Double(foundation.description) {
                return exact == number.double
            }
            return foundation.doubleValue == number.double
        case .string(let utf8):
            // Foundation drops U+FEFF wherever it starts a run of text between escapes (it takes it for
            // a byte order mark); to RFC 8259 it is content, so compare without it.
            func withoutBOM(_ text: String) -> String { text.replacingOccurrences(of: "\u{FEFF}", with: "") }
            return (other as? String).map(withoutBOM) == withoutBOM(String(decoding: utf8, as: UTF8.self))
        case .array(let elements):
            guard let others = other as? [Any], others.count == elements.count else { return false }
            return zip(elements, others).allSatisfy { $0.matchesFoundation($1) }
        case .object(let members):
            guard let others = other as? [String: Any], others.count == members.count else { return false }
            return members.allSatisfy { member in
                others[String(decoding: member.key, as: UTF8.self)].map { member.value.matchesFoundation($0) } ?? false
            }
        }
    }
}

/// Foundation's parse of `bytes`, or `nil` if Foundation rejects it.
func foundationParse(_ bytes: [UInt8]) -> Any? {
    try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
}

/// `value` serialized compactly.
func jsonText(_ value: JSONValue, pretty: Bool = false) -> [UInt8] {
    var out: [UInt8] = []
    JSONWriter.write(value, into: &out, pretty: pretty)
    return out
}
