/// Calls to an imported function with their arguments recovered, for any architecture Keyward
/// reads code of: arm64 and arm64e (`ARM64Calls`) and x86_64 (`X86Calls`).
public enum CallSites {
  public static func calls(to symbol: String, in image: MachOImage, arguments: Int) -> [CallSite] {
    if image.architecture.hasPrefix("arm64") { return ARM64Calls.calls(to: symbol, in: image, arguments: arguments) }
    if image.architecture == "x86_64" { return X86Calls.calls(to: symbol, in: image, arguments: arguments) }
    return []
  }

  /// Whether code of any of the app's images calls `symbol` (a direct call to its stub).
  public static func anyCall(to symbol: String, in app: AppBinary) -> Bool {
    app.allImages.contains { !calls(to: symbol, in: $0.image, arguments: 0).isEmpty }
  }
}
