import SwiftSyntax

/// The shared semantic layer for one file: rules ask it questions instead of each walking the
/// tree. Every part is computed on first use and then shared by all rules run on the file.
public final class SemanticModel {
  public let tree: SourceFileSyntax
  /// What the file's project is built for (`ProjectPlatform`), as the scan found it.
  public var projectPlatform = ProjectPlatform.unspecified
  /// The keychain wrapper libraries to recognise (built in and configured).
  public let wrappers: [WrapperMapping]

  public init(tree: SourceFileSyntax, wrappers: [WrapperMapping] = WrapperMapping.builtIn) {
    self.tree = tree
    self.wrappers = wrappers
  }

  public private(set) lazy var index = SyntaxIndex(tree: tree)
  public private(set) lazy var resolver = ConstantResolver(index: index)
  public private(set) lazy var accessControl = AccessControlEvaluator(resolver: resolver)
  public private(set) lazy var keychainWrites: [KeychainAttributeWrite] = KeychainKeys.writes(
    in: index, resolver: resolver)

  /// The file's keychain queries, each with all its attributes and the calls that use it.
  public private(set) lazy var keychainQueries: [KeychainQuery] = buildKeychainQueries()

  /// Values written to `UserDefaults` and iCloud key-value storage.
  public private(set) lazy var preferencesWrites: [PreferencesWrite] = findPreferencesWrites()

  /// `evaluatePolicy` calls (not `canEvaluatePolicy`), asked for by several rules.
  public private(set) lazy var policyEvaluations: [PolicyEvaluation] = findPolicyEvaluations()

  /// How each evaluation is tied to the keychain, by its call (`binding(of:)`).
  public private(set) lazy var evaluationBindings: [SyntaxIdentifier: EvaluationBinding] = Dictionary(
    uniqueKeysWithValues: policyEvaluations.map { ($0.call.id, classify($0)) })

  /// Access controls written only into searches (`isPutOnlyIntoSearches`).
  private(set) lazy var accessControlsOnlySearched = findAccessControlsOnlySearched()
  /// Names that carry an `LAContext` to `kSecUseAuthenticationContext`.
  public private(set) lazy var contextFlow = AuthenticationContextFlow(
    contexts: keychainWrites(forKey: "kSecUseAuthenticationContext").map(\.value), model: self)

  /// Names that carry an `LAContext` to a keychain wrapper (KeychainAccess's
  /// `authenticationContext(_:)`).
  public private(set) lazy var wrapperContextFlow = AuthenticationContextFlow(
    contexts: wrapperArguments(.authenticationContext), model: self)

  /// Names that carry an `LAContext` to a CryptoKit Secure Enclave key
  /// (`SecureEnclave.P256.Signing.PrivateKey(dataRepresentation:authenticationContext:)`): the
  /// enclave itself then demands the authentication the key's access control names.
  public private(set) lazy var enclaveKeyContextFlow = AuthenticationContextFlow(
    contexts: index.calls(named: "PrivateKey").compactMap {
      SyntaxFacts.argument($0, labeled: "authenticationContext")
    },
    model: self)

  /// Whether the file stores keychain items but none with an access control: then a context
  /// reaching a query unlocks nothing the keychain itself protects. When the contexts only read
  /// keys, an access control the file creates asking for the user counts: a key's access control
  /// is set where the key is generated, often by another file with one this file makes. Asked
  /// once per evaluation.
  public private(set) lazy var storesItemsWithoutAccessControl: Bool =
    keychainQueries.contains { $0.isUsed(by: "SecItemAdd") } && keychainWrites(forKey: "kSecAttrAccessControl").isEmpty
    && !(createsAccessControlAskingForTheUser && contextsOnlyReadKeys)

  /// Whether every query given an authentication context is for a key (`kSecClassKey`).
  private var contextsOnlyReadKeys: Bool {
    let reads = keychainQueries.filter { $0.has("kSecUseAuthenticationContext") }
    return !reads.isEmpty
      && reads.allSatisfy { query in
        query.writes(forKey: "kSecClass").contains { write in
          resolver.values(of: write.value).contains {
            $0.expression.as(DeclReferenceExprSyntax.self)?.baseName.text == "kSecClassKey"
          }
        }
      }
  }

  private var createsAccessControlAskingForTheUser: Bool {
    let askingForTheUser = AccessControlEvaluator.userFactors.union(["devicePasscode", "applicationPassword"])
    return accessControlCreations.contains { creation in
      SyntaxFacts.argument(creation, at: 2).map { flags in
        accessControl.origins(of: flags).contains { askingForTheUser.contains($0.flag.name) }
      } ?? false
    }
  }

  /// Whether the file gives a keychain wrapper an authentication policy (an access control).
  public private(set) lazy var givesWrapperAnAccessControl: Bool = !wrapperValues(.authenticationPolicy).isEmpty

  /// Stored `LAContext` properties of the file's types, by name (`bindingsNamed(by:)`).
  private(set) lazy var contextPropertiesByName: [String: [Binding]] = findContextProperties()

  /// Where contexts can leave the file (`contextHandOff(of:)`).
  private(set) lazy var contextHandOffs = ContextHandOffGraph(model: self)

  /// Attributes written under `key` (`kSecAttrAccessible`) in any query of the file.
  public func keychainWrites(forKey key: String) -> [KeychainAttributeWrite] {
    keychainWrites.filter { $0.key == key }
  }

  /// Attributes written under `key` into dictionaries that may be stored: not those only
  /// searched (a read, a delete, an update's match query), compared, or built and left unused.
  /// `includingProbes` false leaves out items added only to be deleted again, which keep no value.
  public func storedKeychainWrites(forKey key: String, includingProbes: Bool = true) -> [KeychainAttributeWrite] {
    keychainQueries.filter { $0.mayStore && (includingProbes || !$0.isProbe) }.flatMap { $0.writes(forKey: key) }
      .sorted { $0.node.position < $1.node.position }
  }

  /// Calls of `SecAccessControlCreateWithFlags`, the sink of both accessibility and flags.
  public var accessControlCreations: [FunctionCallExprSyntax] {
    index.calls(named: "SecAccessControlCreateWithFlags")
  }

  /// The flags argument of each access control that protects no item: made only to be compared
  /// with another (`isMadeOnlyForComparison`), or put only into searches (`isPutOnlyIntoSearches`).
  public var flagsProtectingNoItem: Set<SyntaxIdentifier> {
    Set(
      accessControlCreations.filter { isMadeOnlyForComparison($0) || isPutOnlyIntoSearches($0) }.compactMap {
        SyntaxFacts.argument($0, at: 2)?.id
      })
  }
}
