import Foundation

/// A JSON value as the protocols exchange it: parsed from a message body, built in code, and
/// printed with sorted keys so that replies are byte-identical from run to run.
public enum JSON: Sendable, Hashable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([JSON])
  case object([String: JSON])

  public subscript(key: String) -> JSON? {
    if case .object(let members) = self { return members[key] }
    return nil
  }

  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// Integers, and doubles with no fraction (some clients send `1.0` for a line number).
  public var intValue: Int? {
    switch self {
    case .int(let value): value
    case .double(let value) where value == value.rounded() && abs(value) < 1e15: Int(value)
    default: nil
    }
  }

  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  public var arrayValue: [JSON]? {
    if case .array(let items) = self { return items }
    return nil
  }

  public var objectValue: [String: JSON]? {
    if case .object(let members) = self { return members }
    return nil
  }

  /// Parses one JSON document; throws on anything that is not one.
  public static func parse(_ bytes: [UInt8]) throws -> JSON {
    try JSONDecoder().decode(JSON.self, from: Data(bytes))
  }

  /// Any `Encodable` value (a `Finding`, say) as JSON, through its own encoding.
  public init<Value: Encodable>(encoding value: Value) throws {
    self = try JSON.parse(Array(try JSONEncoder().encode(value)))
  }

  /// The value printed compactly, keys sorted.
  public func encoded() -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Every case encodes; a failure here would be a bug in this file.
    return Array((try? encoder.encode(self)) ?? Data("null".utf8))
  }

  public var text: String { String(decoding: encoded(), as: UTF8.self) }
}

extension JSON: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int.self) {
      self = .int(value)
    } else if let value = try? container.decode(Double.self) {
      self = .double(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSON].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSON].self))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .int(let value): try container.encode(value)
    case .double(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int) { self = .int(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: JSON...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, JSON)...) {
    self = .object(Dictionary(elements) { _, last in last })
  }
  public init(nilLiteral: ()) { self = .null }
}
