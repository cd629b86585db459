/// Seeded, repeatable generator (Steele, Lea & Flood, "Fast splittable pseudorandom number generators",
/// 2014): property tests print their seed, and the same seed replays the same case.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniformly random value of `bits` bits (0...64); 0 when `bits` is 0.
  mutating func next(bits: Int) -> UInt64 {
    bits == 0 ? 0 : next() >> (64 - bits)
  }
}
