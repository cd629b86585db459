extension FieldType {
    /// Values are numbers, booleans or dates, kept as `NumericMapping` values.
    package var isNumeric: Bool { self != .text && self != .string }
}
