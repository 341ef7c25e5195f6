import Foundation

/// A JSON document built in code, encoded with sorted keys so output is byte-identical from run
/// to run.
public enum JSONValue: Encodable, Equatable, Sendable {
  case object([String: JSONValue])
  case array([JSONValue])
  case string(String)
  case int(Int)
  case bool(Bool)
  case null

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .object(let members): try container.encode(members)
    case .array(let items): try container.encode(items)
    case .string(let text): try container.encode(text)
    case .int(let number): try container.encode(number)
    case .bool(let flag): try container.encode(flag)
    case .null: try container.encodeNil()
    }
  }

  /// Encodes any Encodable the way every Keyward report is written.
  public static func encode(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
  }
}
