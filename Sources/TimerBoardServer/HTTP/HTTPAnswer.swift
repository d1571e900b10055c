import BoardProtocol
import HTTPTypes
import Hummingbird

/// An error answer: a status and the protocol's error shape.
struct HTTPAnswer: Error {
    let status: HTTPResponse.Status
    let code: ErrorCode
    let message: String

    init(_ status: HTTPResponse.Status, _ code: ErrorCode, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    var response: Response {
        BoardsController.json(status, ServerMessage.error(code: code, message: message).encoded())
    }
}
