import ArgumentParser
import Foundation

/// Every option of a command can also come from the environment: `--max-ops-per-edit` from
/// `TIMERBOARD_MAX_OPS_PER_EDIT`, so containers and systemd units need no wrapper scripts.
///
/// swift-argument-parser reads the command line only, so before parsing, each option the
/// command line leaves out is added to the arguments from its variable. A flag given on the
/// command line always wins, and the parser checks values from either place the same way. The
/// options are read from the parser's own description of the command (`_dumpHelp`), so a new
/// flag has its variable without anyone writing it down.
///
/// - An empty variable counts as unset (`TIMERBOARD_ADMIN_TOKEN=` in an environment file).
/// - A repeatable option takes a comma-separated list: `TIMERBOARD_TRUSTED_PROXY=10.0.0.0/8,::1`.
/// - An on/off flag takes `true`/`false` (also `1`/`0`, `yes`/`no`, `on`/`off`).
struct EnvironmentOptions {
    static let prefix = "TIMERBOARD_"

    struct Setting: Equatable {
        enum Kind: Equatable {
            case option
            case repeatingOption
            /// `--name`/`--no-name`; `inverted` when there is a `--no-` form.
            case flag(inverted: Bool)
        }

        /// The long name without dashes: `max-ops-per-edit`.
        let name: String
        let kind: Kind

        /// `TIMERBOARD_MAX_OPS_PER_EDIT`.
        var variable: String { EnvironmentOptions.variable(for: name) }
    }

    /// A variable that cannot become an argument.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let settings: [Setting]

    static func variable(for name: String) -> String {
        prefix + name.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// The options of `command`, as its parser sees them.
    init(for command: any ParsableCommand.Type) {
        struct Dump: Decodable {
            struct Command: Decodable { let arguments: [Argument]? }
            struct Argument: Decodable {
                struct Name: Decodable {
                    let kind: String
                    let name: String
                }
                let kind: String
                let isRepeating: Bool
                let names: [Name]?
            }
            let command: Command
        }
        let dump = try? JSONDecoder().decode(Dump.self, from: Data(command._dumpHelp().utf8))
        let arguments = dump?.command.arguments ?? []
        // The parser lists `--x` and `--no-x` of an inverted flag as two flags: one variable for both.
        let flagNames = Set(arguments.filter { $0.kind == "flag" }.flatMap { $0.names ?? [] }.map(\.name))
        var settings: [Setting] = []
        for argument in arguments {
            let longNames = (argument.names ?? []).filter { $0.kind == "long" }.map(\.name)
            guard let name = longNames.first, !["help", "version"].contains(name) else { continue }
            switch argument.kind {
            case "option": settings.append(Setting(name: name, kind: argument.isRepeating ? .repeatingOption : .option))
            case "flag" where name.hasPrefix("no-") && flagNames.contains(String(name.dropFirst(3))):
                continue  // the `--x` flag's variable covers it
            case "flag": settings.append(Setting(name: name, kind: .flag(inverted: flagNames.contains("no-" + name))))
            default: continue  // positional arguments have no variable
            }
        }
        self.settings = settings
    }

    init(settings: [Setting]) {
        self.settings = settings
    }

    /// `arguments` with every setting it lacks added from `environment`, in front, and the
    /// settings that came from there.
    func fill(_ arguments: [String], environment: [String: String]) throws(Failure) -> (arguments: [String], fromEnvironment: [Setting]) {
        // Only what comes before `--` can be an option.
        let given = arguments.prefix { $0 != "--" }
        func isGiven(_ name: String) -> Bool {
            given.contains { $0 == "--" + name || $0.hasPrefix("--" + name + "=") }
        }
        var added: [String] = []
        var used: [Setting] = []
        for setting in settings {
            guard let value = environment[setting.variable], !value.isEmpty else { continue }
            switch setting.kind {
            case .option:
                guard !isGiven(setting.name) else { continue }
                added += ["--" + setting.name, value]
            case .repeatingOption:
                guard !isGiven(setting.name) else { continue }
                let items = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                added += items.flatMap { ["--" + setting.name, $0] }
            case .flag(let inverted):
                guard !isGiven(setting.name), !(inverted && isGiven("no-" + setting.name)) else { continue }
                switch value.lowercased() {
                case "1", "true", "yes", "on": added.append("--" + setting.name)
                case "0", "false", "no", "off":
                    if inverted { added.append("--no-" + setting.name) }
                default:
                    throw Failure(description: "\(setting.variable) must be true or false, not '\(value)'")
                }
            }
            used.append(setting)
        }
        return (added + arguments, used)
    }

    /// `TIMERBOARD_` variables that name none of these settings: a typo would otherwise be
    /// silently ignored.
    func unknownVariables(in environment: [String: String]) -> [String] {
        let known = Set(settings.map(\.variable))
        return environment.keys.filter { $0.hasPrefix(Self.prefix) && !known.contains($0) }.sorted()
    }
}
