import BoardProtocol
import BoardStore
import Crypto
import Foundation

/// A board's three link secrets. Only the owner secret is random; the edit and view secrets are
/// derived from it and a generation count, so the server can show an owner the current links
/// again while storing nothing but hashes (docs/protocol.md, "Links and roles").
struct BoardSecrets: Sendable {
    let owner: String
    let edit: String
    let view: String
    let editGeneration: Int
    let viewGeneration: Int

    /// The secrets of the given generations, derived from `owner`.
    init(owner: String, editGeneration: Int, viewGeneration: Int) {
        self.owner = owner
        self.editGeneration = editGeneration
        self.viewGeneration = viewGeneration
        edit = Self.derive(from: owner, "edit/\(editGeneration)")
        view = Self.derive(from: owner, "view/\(viewGeneration)")
    }

    /// Fresh secrets for a new board (or an operator's reset): 128 random bits for the owner.
    static func mint() -> BoardSecrets {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return BoardSecrets(owner: Self.base64URL(random), editGeneration: 0, viewGeneration: 0)
    }

    /// The client id of edits sent over HTTP with `secret`: private to whoever holds that link
    /// (it keys the idempotency of their opIds, as a socket's own client id does).
    static func httpClientID(secret: String, boardID: String) -> String {
        let digest = SHA256.hash(data: Data("timerboard http client\u{0}\(boardID)\u{0}\(secret)".utf8))
        return "http-" + digest.prefix(20).map { String(format: "%02x", $0) }.joined()
    }

    /// What the store keeps: hashes only.
    var access: BoardAccess {
        BoardAccess(
            ownerHash: Self.hash(owner),
            editHash: Self.hash(edit),
            viewHash: Self.hash(view),
            editGeneration: editGeneration,
            viewGeneration: viewGeneration
        )
    }

    func secret(for role: BoardRole) -> String {
        switch role {
        case .owner: owner
        case .edit: edit
        case .view: view
        }
    }

    /// The secrets after replacing the edit or view link (the owner link stays).
    func replacing(_ role: BoardRole) -> BoardSecrets {
        BoardSecrets(
            owner: owner,
            editGeneration: editGeneration + (role == .edit ? 1 : 0),
            viewGeneration: viewGeneration + (role == .view ? 1 : 0)
        )
    }

    /// The secrets that belong to `owner` on a board with `access`, or nil when `owner` is not
    /// that board's owner secret.
    static func recover(owner: String, access: BoardAccess) -> BoardSecrets? {
        guard access.role(of: owner) == .owner else { return nil }
        return BoardSecrets(owner: owner, editGeneration: access.editGeneration, viewGeneration: access.viewGeneration)
    }

    /// The path of a link, with the secret in the fragment: browsers never send a fragment to a
    /// server or put it in a Referer.
    static func link(boardID: String, role: BoardRole, secret: String) -> String {
        "/b/\(boardID)#\(role.rawValue)=\(secret)"
    }

    static func hash(_ secret: String) -> [UInt8] {
        Array(SHA256.hash(data: Data(secret.utf8)))
    }

    private static func derive(from owner: String, _ label: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data(label.utf8), using: SymmetricKey(data: Data(owner.utf8)))
        return base64URL(Array(code.prefix(16)))
    }

    /// 16 bytes are 22 characters of `A-Z a-z 0-9 - _`: safe in a URL fragment and a header.
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

extension BoardAccess {
    /// The role `secret` gives on this board, or nil. Every hash is compared in full, in time
    /// that does not depend on where the bytes differ.
    func role(of secret: String) -> BoardRole? {
        role(ofHash: BoardSecrets.hash(secret))
    }

    /// The role of the secret whose SHA-256 is `hash`: for a caller that checks one secret twice.
    func role(ofHash hash: [UInt8]) -> BoardRole? {
        let isOwner = ConstantTime.equal(hash, ownerHash)
        let isEdit = ConstantTime.equal(hash, editHash)
        let isView = ConstantTime.equal(hash, viewHash)
        return isOwner ? .owner : isEdit ? .edit : isView ? .view : nil
    }
}
