import Foundation
import KeywardCore

/// Reads what a code signature grants. `LC_CODE_SIGNATURE` points at a SuperBlob (magic
/// 0xfade0cc0, big-endian) whose index lists its blobs; the entitlements blob (magic 0xfade7171)
/// holds an XML property list. Anything malformed reads as no entitlements.
enum CodeSignature {
  static let superBlobMagic: UInt32 = 0xFADE_0CC0
  static let entitlementsMagic: UInt32 = 0xFADE_7171

  /// The entitlements in the signature at `offset` (`size` bytes) of the image.
  static func entitlements(_ view: ByteView, offset: Int, size: Int) -> SigningEntitlements? {
    guard (try? view.u32(offset, bigEndian: true)) == superBlobMagic,
      let count = try? view.u32(offset + 8, bigEndian: true), count < 64
    else { return nil }
    for index in 0..<Int(count) {
      guard let blob = try? view.u32(offset + 12 + index * 8 + 4, bigEndian: true), Int(blob) < size else { continue }
      let start = offset + Int(blob)
      guard (try? view.u32(start, bigEndian: true)) == entitlementsMagic,
        let length = try? view.u32(start + 4, bigEndian: true), length >= 8, Int(length) <= size - Int(blob),
        let xml = try? view.slice(start + 8, Int(length) - 8)
      else { continue }
      return parse(Array(xml))
    }
    return nil
  }

  static func parse(_ plist: [UInt8]) -> SigningEntitlements? {
    guard
      let object = try? PropertyListSerialization.propertyList(from: Data(plist), options: [], format: nil),
      let dictionary = object as? [String: Any]
    else { return nil }
    return SigningEntitlements(
      applicationIdentifier: dictionary["application-identifier"] as? String
        ?? dictionary["com.apple.application-identifier"] as? String,
      defaultDataProtection: dictionary["com.apple.developer.default-data-protection"] as? String,
      keychainAccessGroups: dictionary["keychain-access-groups"] as? [String] ?? [])
  }
}
