import BoardProtocol
import BoardStore
import Testing

@testable import TimerBoardServer

@Suite struct BoardSecretsTests {
    @Test func eachSecretGivesItsRoleAndNothingElseGivesAny() {
        let secrets = BoardSecrets.mint()
        let access = secrets.access
        for role in BoardRole.allCases {
            #expect(access.role(of: secrets.secret(for: role)) == role)
        }
        #expect(access.role(of: "") == nil)
        #expect(access.role(of: String(secrets.edit.dropLast())) == nil)
        #expect(access.role(of: BoardSecrets.mint().owner) == nil)
    }

    @Test func secretsAre22URLSafeCharactersAndTheStoreSeesOnlyTheirHashes() {
        let secrets = BoardSecrets.mint()
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for role in BoardRole.allCases {
            let secret = secrets.secret(for: role)
            #expect(secret.count == 22 && secret.allSatisfy(allowed.contains))
        }
        let access = secrets.access
        #expect([access.ownerHash, access.editHash, access.viewHash].allSatisfy { $0.count == 32 })
        #expect(Set([access.ownerHash, access.editHash, access.viewHash]).count == 3)
    }

    @Test func theOwnerSecretRecoversTheCurrentLinksAndNoOtherSecretDoes() throws {
        let secrets = BoardSecrets.mint().replacing(.edit).replacing(.edit).replacing(.view)
        let recovered = try #require(BoardSecrets.recover(owner: secrets.owner, access: secrets.access))
        #expect(recovered.edit == secrets.edit && recovered.view == secrets.view)
        #expect(BoardSecrets.recover(owner: secrets.edit, access: secrets.access) == nil)
        #expect(BoardSecrets.recover(owner: BoardSecrets.mint().owner, access: secrets.access) == nil)
    }

    @Test func replacingALinkChangesThatLinkOnly() {
        let secrets = BoardSecrets.mint()
        let newEdit = secrets.replacing(.edit)
        #expect(newEdit.owner == secrets.owner && newEdit.view == secrets.view && newEdit.edit != secrets.edit)
        #expect(newEdit.access.role(of: secrets.edit) == nil)
        let newView = secrets.replacing(.view)
        #expect(newView.owner == secrets.owner && newView.edit == secrets.edit && newView.view != secrets.view)
        // Derivation is a function of the owner secret and the generation: the same every time.
        #expect(BoardSecrets(owner: secrets.owner, editGeneration: 1, viewGeneration: 0).edit == newEdit.edit)
    }

    @Test func presenceIDsHideTheClientIDAndDifferPerBoard() {
        let id = Participant.userID(clientID: "web-Ada1", boardID: "board1")
        #expect(id.utf8.count == 15 && !id.contains("Ada"))
        #expect(id == Participant.userID(clientID: "web-Ada1", boardID: "board1"))
        #expect(id != Participant.userID(clientID: "web-Ada1", boardID: "board2"))
        #expect(id != Participant.userID(clientID: "web-Bob2", boardID: "board1"))
    }
}
