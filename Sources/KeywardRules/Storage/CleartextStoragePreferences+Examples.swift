import KeywardCore

/// The flagged and clean examples of `swift.cleartext_storage_preferences`, which the test suite runs, and the shapes
/// they are built from.
extension CleartextStoragePreferences {
  public static let examples = RuleExamples(
    flagged: [
      // The tokens are serialized into data kept in a local before the write.
      """
      func save(_ session: OAuthSession) throws {
          let fields: [String: Any] = ["token_type": session.tokenType, "refresh_token": session.refreshToken]
          let data = try JSONSerialization.data(withJSONObject: fields)
          UserDefaults.standard.set(↓data, forKey: "session-\\(session.account)")
      }
      """,
      // Reported once, at the write under a key named for the secret: the call handing the
      // helper its token is that finding.
      RuleExample(attestationCache(key: "cachedSessionToken", marker: "↓")),
      // A session's id is the session's credential, unlike a user's id.
      "func remember(sessionID: String) { UserDefaults.standard.set(↓sessionID, forKey: \"current\") }",
      // A list of the tokens themselves.
      """
      func remember(_ grant: OAuthGrant) {
          var savedTokens = UserDefaults.standard.stringArray(forKey: "storedTokens") ?? [String]()
          savedTokens.append(grant.refreshToken)
          UserDefaults.standard.set(↓savedTokens, forKey: "storedTokens")
      }
      """,
      // Two acronyms in a row still name an API key.
      """
      extension UserDefaults {
          enum ProviderKey: String { case openAIAPIKey = "com.example.openAIAPIKey" }
          var openAIAPIKey: String {
              get { string(forKey: ProviderKey.openAIAPIKey.rawValue) ?? "" }
              set { set(↓newValue, forKey: ProviderKey.openAIAPIKey.rawValue) }
          }
      }
      """,
      #"UserDefaults.standard.set(↓authToken, forKey: "authToken")"#,
      #"UserDefaults(suiteName: "group.app")?.setValue(↓value, forKey: "refresh_token")"#,
      """
      let defaults = UserDefaults.standard
      defaults.set(↓password, forKey: Keys.login)
      """,
      #"NSUbiquitousKeyValueStore.default.set(↓pin, forKey: "userPinCode")"#,
      #"UserDefaults.standard.set(↓value, forKey: "token-\(accountID)")"#,
      #"UserDefaults.standard.set(↓saltedPassword, forKey: "passwordWithSalt")"#,
      // A wallet's recovery words, a VPN tunnel's pre-shared key, an API session's auth value.
      #"UserDefaults.standard.set(↓words.joined(separator: " "), forKey: "walletMnemonic")"#,
      """
      let sharedDefaults = UserDefaults(suiteName: "group.vpn")!
      sharedDefaults.set(↓config.presharedKey, forKey: "wgKey")
      """,
      #"UserDefaults(suiteName: group)?.set(↓session.sessionAuthHash, forKey: "activeUser")"#,
      // A key constant named for where the secret is kept.
      """
      enum Wallet { static let privateKeyStorageKey = "wallet.signing" }
      UserDefaults.standard.set(↓hex, forKey: Wallet.privateKeyStorageKey)
      """,
      // A key made for the kind of secret it holds.
      """
      enum Secret { case refreshToken }
      UserDefaults.standard.set(↓value, forKey: storageKey(for: Secret.refreshToken))
      """,
      // An API key is a key itself, not the name of one.
      """
      enum Keys { static let serverAPIKey = "server" }
      UserDefaults.standard.set(↓value, forKey: Keys.serverAPIKey)
      """,
      // The same setter on a property declared `String`.
      """
      final class Session {
          var refreshToken: String? {
              get { UserDefaults.standard.string(forKey: "refreshToken") }
              set { UserDefaults.standard.set(↓newValue, forKey: "refreshToken") }
          }
      }
      """,
      #"struct Settings { ↓@AppStorage("apiKey") var key = "" }"#,
      """
      struct ServerSettings: View {
          ↓@AppStorage("serverPassword") private var serverPassword = ""
          var body: some View { SecureField("Password", text: $serverPassword) }
      }
      """,
      // The app's own wrapper, whose setter writes to the shared defaults.
      """
      @propertyWrapper
      struct Stored<T> {
          let key: String
          let defaultValue: T
          var wrappedValue: T {
              get { Settings.shared.object(forKey: key) as? T ?? defaultValue }
              set { Settings.shared.set(newValue, forKey: key) }
          }
      }
      enum Settings {
          static let shared = UserDefaults(suiteName: "group.app")!
          ↓@Stored(key: "password", defaultValue: "") static var password: String
          @Stored(key: "theme", defaultValue: "dark") static var theme: String
      }
      """,
      // A property added to the store itself, writing on `self`.
      RuleExample(storeExtension(receiver: "", marker: "↓")),
      RuleExample(storeExtension(receiver: "self.", marker: "↓")),
      // A state word before the secret's describes it: the cookies a response asks to keep.
      """
      func remember(_ response: HTTPResponse, host: String) {
          let received = response.headers["Set-Cookie"]
          UserDefaults.standard.set(↓received, forKey: host)
      }
      """,
      #"UserDefaults.standard.set(↓value, forKey: "savedPassword")"#,
      // A secret handed to the app's own helper, which writes whatever it is given to a store.
      RuleExample(settingsStore(handing: "↓encodedKey", key: "vaultSecret")),
      """
      final class Preferences {
          func set(value: String?, for key: String) { UserDefaults.standard.set(value, forKey: key) }
      }
      func signedIn(_ preferences: Preferences, authToken: String) {
          preferences.set(value: ↓authToken, for: "session")
      }
      """,
      // The list of accounts gets the session token by subscript before it is written.
      """
      func remember(_ session: Session, at index: Int) {
          guard var accounts = UserDefaults.standard.array(forKey: "accounts") as? [[String: String]] else { return }
          accounts[index]["authToken"] = session.token
          UserDefaults.standard.set(↓accounts, forKey: "accounts")
      }
      """,
      """
      func updateClientCertificate(at index: Int, password: String) {
          guard var accounts = UserDefaults.standard.array(forKey: "accounts") as? [[String: String]] else { return }
          var account = accounts[index]
          account["certificatePassword"] = password
          accounts[index] = account
          UserDefaults.standard.set(↓accounts, forKey: "accounts")
      }
      """,
      #"UserDefaults.standard.set(↓signer.privkey, forKey: "signerKey")"#,
    ],
    clean: [
      // Only the session's type and expiry are serialized.
      """
      func save(_ session: OAuthSession) throws {
          let fields: [String: Any] = ["token_type": session.tokenType, "expires_in": session.lifetime]
          let data = try JSONSerialization.data(withJSONObject: fields)
          UserDefaults.standard.set(data, forKey: "session-\\(session.account)")
      }
      """,
      // A list of whose tokens are kept: names, added to or filtered from what the store held.
      """
      enum GrantDirectory {
          static func remember(_ grant: OAuthGrant) {
              var savedTokens = UserDefaults.standard.stringArray(forKey: "storedTokens") ?? [String]()
              savedTokens.append(grant.username)
              UserDefaults.standard.set(savedTokens, forKey: "storedTokens")
          }
          static func forget(_ username: String) {
              var savedTokens = UserDefaults.standard.array(forKey: "storedTokens") as? [String] ?? []
              savedTokens = savedTokens.filter { $0 != username }
              UserDefaults.standard.set(savedTokens, forKey: "storedTokens")
          }
      }
      """,
      // The predicate's names say which names are kept, not what they are.
      """
      final class RecentSearches {
          var filter = ""
          lazy var names: [String] = load()
          func load() -> [String] {
              let saved = UserDefaults.standard.stringArray(forKey: "recent") ?? []
              return saved.filter { $0.matches(searchTokens: filter.split(separator: " ")) }
          }
          func remember(_ name: String) {
              names.insert(name, at: 0)
              UserDefaults.standard.set(names, forKey: "recent")
          }
      }
      """,
      """
      func remember(_ account: Account, at index: Int) {
          var accounts = UserDefaults.standard.array(forKey: "accounts") as? [[String: String]] ?? []
          accounts[index]["displayName"] = account.name
          UserDefaults.standard.set(accounts, forKey: "accounts")
      }
      """,
      #"UserDefaults.standard.set(true, forKey: "hasSeenOnboarding")"#,
      #"UserDefaults.standard.set(theme, forKey: "theme")"#,
      // Flags, counts and dates about a secret are not the secret.
      #"UserDefaults.standard.set(true, forKey: "isPasscodeSet")"#,
      #"UserDefaults.standard.set(words.count, forKey: "mnemonicWordCount")"#,
      // The name of a kind of credential (an enum case's raw value), not a credential.
      #"UserDefaults.standard.set(AuthType.clientToken.rawValue, forKey: "authorizationType")"#,
      #"UserDefaults.standard.set(failedCount, forKey: "passcodeAttempts")"#,
      // After it, a state word says something about the secret.
      #"UserDefaults.standard.set(outcome, forKey: "passwordChanged")"#,
      #"UserDefaults.standard.set(Date(), forKey: "lastPasswordChange")"#,
      // A setter's new value of a property declared `Int`: a number, whatever the key says.
      """
      final class DisplaySettings {
          var passwordGroupSize: Int {
              get { UserDefaults.standard.integer(forKey: "password.groupSize") }
              set { UserDefaults.standard.set(newValue, forKey: "password.groupSize") }
          }
      }
      """,
      // A helper named for what it keeps: the push service's registration token.
      """
      final class PushRegistration {
          func didReceiveFCMToken(_ token: String) { UserDefaults.standard.set(token, forKey: "lastFCMToken") }
          func refresh(_ token: String) { didReceiveFCMToken(token) }
      }
      """,
      // A number read back with a typed getter and kept under a new key (a migration).
      """
      func moveChoice(from old: String, to new: String) {
          let choice = UserDefaults.standard.integer(forKey: "savePasswordChoice-" + old)
          UserDefaults.standard.set(choice, forKey: "savePasswordChoice-" + new)
      }
      """,
      // A name whose other words make it the generator's settings, or tags, not the secret.
      #"UserDefaults.standard.set(encodedSettings, forKey: "passwordGeneratorConfig")"#,
      #"UserDefaults.standard.set(Array(reportedTags), forKey: "reportedTokenTags")"#,
      "func remember(_ enabled: Bool) { UserDefaults.standard.set(enabled, forKey: Keys.passcode) }",
      // The value says what it is: an identifier, or a string the app already ships.
      """
      func signedIn(userId: String) {
          UserDefaults.standard.set(userId, forKey: "sessionToken")
      }
      """,
      """
      enum Targets { static let analyticsToken = "3f2a-public-ingestion" }
      UserDefaults.standard.set(Targets.analyticsToken, forKey: "targetToken")
      """,
      // A push device token or a crypto asset's token is not a credential.
      #"UserDefaults.standard.set(deviceToken, forKey: "pushDeviceToken")"#,
      // The identifier of the network a chosen crypto token lives on.
      """
      final class ConversionSettings {
          var selectedToken: Token? {
              didSet { UserDefaults.standard.set(selectedToken?.network.uid, forKey: "selected-network") }
          }
      }
      """,
      // Values interpolated into a key say whose item it is; what follows "with" qualifies a name.
      #"UserDefaults.standard.set(lastPage, forKey: "feed-\(sessionID)")"#,
      // A key made from the account's token (its digest) says whose setting it is.
      """
      func rememberTab(_ tab: String, accessToken: String) {
          let key = accountKey(from: accessToken, prefix: "lastTab")
          UserDefaults.standard.set(tab, forKey: key)
      }
      """,
      #"UserDefaults.standard.set(addressList, forKey: "addressesWithPrivateKeys")"#,
      #"UserDefaults.standard.set(selectedTokenSymbol, forKey: "favoriteTokenSymbol")"#,
      #"UserDefaults.standard.set(nil, forKey: "authToken")"#,
      // Google Cloud Messaging, the name Firebase's push registration token had before FCM.
      """
      final class Preferences {
          enum Key: String { case gcmToken, currentEnvironment }
          private let defaults = UserDefaults.standard
          func set(value: String?, forKey key: Key) { defaults.set(value, forKey: key.rawValue) }
          func wipeKeepingPushRegistration() {
              let currentToken = defaults.string(forKey: Key.gcmToken.rawValue)
              defaults.removePersistentDomain(forName: "app")
              set(value: currentToken, forKey: .gcmToken)
          }
      }
      """,
      // The value's own name or type says what kind of token the key means.
      """
      func messaging(_ messaging: Messaging, didReceiveRegistrationToken fcmToken: String?) {
          UserDefaults.standard.set(fcmToken, forKey: "token")
      }
      """,
      """
      func remember(_ changeToken: CKServerChangeToken) throws {
          let data = try NSKeyedArchiver.archivedData(withRootObject: changeToken, requiringSecureCoding: true)
          UserDefaults.standard.set(data, forKey: "cloudToken")
      }
      """,
      """
      final class Sync {
          private var primaryZoneToken: CKServerChangeToken? {
              get { nil }
              set {
                  guard let token = newValue else { return }
                  let data = try! NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true)
                  UserDefaults.standard.set(data, forKey: "primaryZoneToken")
              }
          }
      }
      """,
      #"cache.set(authToken, forKey: "authToken")"#,
      #"struct Settings { @AppStorage("colorScheme") var scheme = "dark" }"#,
      // Read only: its initial value is a default the wrapper never writes.
      """
      struct LockScreen: View {
          @AppStorage("storedPasscode") private var storedPasscode = ""
          var body: some View { PasscodeField(expected: storedPasscode) }
      }
      """,
      // The same property on a cache of the app's own: not a preferences store.
      RuleExample(storeExtension(receiver: "", marker: "", type: "ResponseCache")),
      // Handed to a helper whose key says the token is the device's, not a credential.
      RuleExample(attestationCache(key: "cachedDeviceToken", marker: "")),
      // Handed to the helper: a setting, not a secret; or a flag under a secret's key.
      RuleExample(settingsStore(handing: "theme", key: "appTheme")),
      RuleExample(settingsStore(handing: "isEnabled", key: "vaultSecret")),
      // A helper that keeps what it is given in the keychain, not in preferences.
      """
      import Security
      final class Vault {
          func keep(_ value: String, key: String) {
              let item: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: key,
                                         kSecValueData as String: Data(value.utf8)]
              SecItemAdd(item as CFDictionary, nil)
          }
          func signedIn(authToken: String) { keep(authToken, key: "session") }
      }
      """,
    ])

  /// A token handed to a private helper that writes it under `key`; `marker` marks the write.
  static func attestationCache(key: String, marker: String) -> String {
    """
    final class AttestationCache {
        private let defaults = UserDefaults.standard
        func refresh(_ device: DCDevice) {
            device.generateToken { token, _ in
                if let token { self.keep(token: token) }
            }
        }
        private func keep(token: Data) { defaults.set(\(marker)token, forKey: "\(key)") }
    }
    """
  }

  /// A settings store whose private helper writes to `UserDefaults`, handed `value` under `key`.
  static func settingsStore(handing value: String, key: String) -> String {
    """
    final class SettingsStore {
        private let defaults: UserDefaults
        init(defaults: UserDefaults) { self.defaults = defaults }
        private func write(_ value: Any?, key: String) { defaults.set(value, forKey: key) }
        func save(encodedKey: String, theme: String, isEnabled: Bool, userID: String) {
            write(\(value), key: "\(key)_\\(userID)")
        }
    }
    """
  }

  /// A store extension whose property keeps the server's API secret under an enum key.
  static func storeExtension(receiver: String, marker: String, type: String = "UserDefaults") -> String {
    """
    extension \(type) {
        enum Key: String { case serverAPISecret }
        var serverAPISecret: String? {
            get { string(forKey: Key.serverAPISecret.rawValue) }
            set { \(receiver)set(\(marker)newValue, forKey: Key.serverAPISecret.rawValue) }
        }
    }
    """
  }
}
