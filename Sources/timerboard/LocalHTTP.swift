import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One HTTP/1.1 request to a server on this machine (`http://HOST:PORT/...`, as its
/// `ServingMark` names it), on a blocking socket: the operator's commands need no HTTP client
/// library (the binary links no FoundationNetworking).
enum LocalHTTP {
    struct Answer {
        let status: Int
        let body: Data
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `POST url` with an empty body and `Authorization: Bearer bearer`; waits at most 30 s.
    static func post(url: String, bearer: String) throws -> Answer {
        guard let parsed = URLComponents(string: url), parsed.scheme == "http", let host = parsed.host, let port = parsed.port else {
            throw Failure(description: "not a local http URL: \(url)")
        }
        let socket = try connect(host: host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port: port)
        defer { close(socket) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request =
            "POST \(parsed.percentEncodedPath) HTTP/1.1\r\nHost: \(host):\(port)\r\nAuthorization: Bearer \(bearer)\r\n"
            + "Content-Length: 0\r\nConnection: close\r\n\r\n"
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw Failure(description: "sending failed: \(String(cString: strerror(errno)))") }
            sent += count
        }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count == 0 { break }
            guard count > 0 else { throw Failure(description: "no answer: \(String(cString: strerror(errno)))") }
            received.append(contentsOf: buffer[..<count])
        }
        return try parse(received)
    }

    private static func connect(host: String, port: Int) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, "\(port)", &hints, &found) == 0, let first = found else {
            throw Failure(description: "cannot resolve \(host)")
        }
        defer { freeaddrinfo(found) }
        var address: UnsafeMutablePointer<addrinfo>? = first
        while let candidate = address {
            let socket = Glibc.socket(candidate.pointee.ai_family, candidate.pointee.ai_socktype, candidate.pointee.ai_protocol)
            if socket >= 0 {
                if Glibc.connect(socket, candidate.pointee.ai_addr, candidate.pointee.ai_addrlen) == 0 { return socket }
                close(socket)
            }
            address = candidate.pointee.ai_next
        }
        throw Failure(description: "cannot connect to \(host):\(port): \(String(cString: strerror(errno)))")
    }

    /// The status and the body of a whole answer (`Content-Length` or read to the close).
    private static func parse(_ answer: Data) throws -> Answer {
        guard let end = answer.range(of: Data("\r\n\r\n".utf8)) else { throw Failure(description: "an incomplete answer") }
        let head = String(decoding: answer[..<end.lowerBound], as: UTF8.self)
        let statusLine = head.split(separator: "\r\n").first.map(String.init) ?? ""
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure(description: "not an HTTP answer: \(statusLine)") }
        return Answer(status: status, body: Data(answer[end.upperBound...]))
    }
}
