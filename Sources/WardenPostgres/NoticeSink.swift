import CLibPQ

/// Holds a connection's notice handler; libpq calls `noticeReceiver` with it as context.
final class NoticeSink {
    var handler: (PGNotice) -> Void
    init(_ handler: @escaping (PGNotice) -> Void) { self.handler = handler }
}

/// libpq's notice receiver: turns the notice's `PGresult` into a `PGNotice`.
/// libpq owns and frees the result.
let noticeReceiver: PQnoticeReceiver = { context, result in
    guard let context, let result else { return }
    let sink = Unmanaged<NoticeSink>.fromOpaque(context).takeUnretainedValue()
    let field = { (code: Int32) in ServerErrorFields.field(result, code) }
    let notice = PGNotice(
        severity: field(ServerErrorFields.severityCode) ?? "NOTICE",
        sqlState: field(ServerErrorFields.sqlStateCode).map(SQLState.init(rawValue:)),
        message: field(ServerErrorFields.messageCode) ?? "",
        detail: field(ServerErrorFields.detailCode),
        hint: field(ServerErrorFields.hintCode))
    sink.handler(notice)
}
