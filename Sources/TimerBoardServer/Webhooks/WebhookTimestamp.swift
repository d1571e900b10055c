/// ISO 8601 in UTC with milliseconds (`2025-11-21T16:00:05.250Z`), the payload's `timestamp`,
/// from server epoch milliseconds: the civil date by arithmetic, with no locale or calendar.
enum WebhookTimestamp {
    static func iso8601(milliseconds: Int64) -> String {
        let (days, dayMilliseconds) = milliseconds.quotientAndRemainderFloored(dividingBy: 86_400_000)
        let (year, month, day) = civil(daysSince1970: days)
        let hours = dayMilliseconds / 3_600_000
        let minutes = dayMilliseconds / 60_000 % 60
        let seconds = dayMilliseconds / 1_000 % 60
        let millis = dayMilliseconds % 1_000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(millis, 3))Z"
    }

    /// Howard Hinnant's `civil_from_days`: proleptic Gregorian, valid for any day count.
    private static func civil(daysSince1970 days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension Int64 {
    /// Division rounding toward minus infinity, so instants before 1970 split into days correctly.
    fileprivate func quotientAndRemainderFloored(dividingBy divisor: Int64) -> (Int64, Int64) {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
