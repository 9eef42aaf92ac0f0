import HTTP
import SignService
import SimpleJSON

extension SignRoutes {
  /// The panel finder's routes: `GET /api/panel-finder` (the panel's size and the question
  /// while one runs), `POST` it to start (`{"lang": "zh"}`), `POST /api/panel-finder/answer`
  /// (`{"answer": "y"}`, or the numbers seen, `{"answer": [1, 4]}`), `DELETE` it to stop.
  /// A sign without a HUB75 panel answers 404.
  func addFinderRoutes(to router: inout HTTPRouter) {
    router.add("GET", "/api/panel-finder") { [self] _ in
      guard let finder else { return .now(SignRoutes.noFinder) }
      return .now(.json(finder.current()))
    }
    router.add("POST", "/api/panel-finder") { [self] request in
      finding(request) { fields, desk in
        try fields.rejectUnknownKeys(["lang"])
        let chinese = try fields.choice("lang", ["en", "zh"]) == "zh"
        return { desk throws(SignRefusal) in try desk.start(chinese: chinese) }
      }
    }
    router.add("POST", "/api/panel-finder/answer") { [self] request in
      finding(request) { fields, desk in
        try fields.rejectUnknownKeys(["answer"])
        let text: String
        switch fields.optional("answer") {
        case .string(let typed)?: text = typed
        case .array(let seen)?:
          let numbers = seen.compactMap { value -> Int? in
            guard case .number(let number) = value, number == number.rounded(), abs(number) <= 1_000 else { return nil }
            return Int(number)
          }
          guard numbers.count == seen.count else { throw SignRefusal(field: "answer", "expected whole numbers, the numbers seen") }
          text = numbers.isEmpty ? "0" : numbers.map(String.init).joined(separator: " ")
        case nil: throw SignRefusal(field: "answer", "missing: a choice's answer, or the numbers seen")
        case let other?: throw SignRefusal(field: "answer", "expected a string or an array of numbers, not \(other.typeName)")
        }
        return { desk throws(SignRefusal) in try desk.answer(text) }
      }
    }
    router.add("DELETE", "/api/panel-finder") { [self] request in
      finding(request, body: false) { _, _ in { desk throws(SignRefusal) in desk.cancel() } }
    }
  }

  /// The answer of a sign without a finder.
  static var noFinder: HTTPResponse { .error(404, "this sign has no HUB75 panel to find the settings of (the finder needs a hub75 board)") }

  /// A finder request: its body read on the server thread, the work on the finder's queue.
  func finding(
    _ request: HTTPRequest, body: Bool = true,
    _ make: (JSONFields, PanelFinderDesk) throws -> @Sendable (PanelFinderDesk) throws(SignRefusal) -> JSONValue
  ) -> HTTPReply {
    guard let finder else { return .now(SignRoutes.noFinder) }
    let work: @Sendable (PanelFinderDesk) throws(SignRefusal) -> JSONValue
    do {
      work = try make(body ? SignRoutes.body(request) : JSONFields(.object([])), finder)
    } catch {
      return .now(SignRoutes.response(SignRefusal(from: error)))
    }
    return .later { complete in
      finder.perform(work) { result in
        switch result {
        case .success(let value): complete(.json(value))
        case .failure(let refusal): complete(SignRoutes.response(refusal))
        }
      }
    }
  }
}
