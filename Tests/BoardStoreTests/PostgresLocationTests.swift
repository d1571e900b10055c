import BoardStore
import Testing

/// `--store` URLs as operators write them: a password with the characters a URL reserves must
/// work, and no message may repeat the password.
@Suite struct PostgresLocationTests {
    @Test(arguments: [
        ("postgres://tb:pa/ss@db.example:6543/boards", "pa/ss"),
        ("postgres://tb:p@ss/w:rd?#@db.example:6543/boards", "p@ss/w:rd?#"),
        ("postgresql://tb:p%2Fx@db.example:6543/boards", "p/x"),
    ])
    func aPasswordMayHoldWhatAURLReserves(_ url: String, _ password: String) throws {
        let location = try #require(PostgresLocation(url: url))
        #expect(location.username == "tb")
        #expect(location.password == password)
        #expect(location.host == "db.example")
        #expect(location.port == 6543)
        #expect(location.database == "boards")
        #expect(!location.description.contains(password))
    }

    @Test func theDefaultsAndTheOptions() throws {
        let plain = try #require(PostgresLocation(url: "postgres://tb@localhost/boards"))
        #expect(plain.port == 5432)
        #expect(plain.password == nil)
        #expect(!plain.requiresTLS)
        let tls = try #require(PostgresLocation(url: "postgres://tb:x@[::1]:5433/boards?sslmode=require"))
        #expect(tls.host == "::1")
        #expect(tls.port == 5433)
        #expect(tls.requiresTLS)
        #expect(tls.description == "postgres://tb@[::1]:5433/boards")
    }

    @Test(arguments: [
        "mysql://tb@host/db", "postgres://host/db", "postgres://tb@/db", "postgres://tb@host", "postgres://tb@host/",
        "postgres://tb@host:notaport/db", "postgres://tb@host/a/b", "postgres://:secret@host/db",
    ])
    func whatIsNotAStoreURLIsRefused(_ url: String) {
        #expect(PostgresLocation(url: url) == nil)
    }

    @Test(arguments: [
        ("postgres://tb:pa/ss@host/db", "postgres://tb:***@host/db"),
        ("postgres://tb:pa/ss@host:bad/db", "postgres://tb:***@host:bad/db"),
        ("postgres://tb@host/db", "postgres://tb@host/db"),
        ("nonsense", "nonsense"),
    ])
    func aMessageRepeatsTheURLWithoutItsPassword(_ url: String, _ shown: String) {
        #expect(PostgresLocation.redacted(url) == shown)
    }
}
