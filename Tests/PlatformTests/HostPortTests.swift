import Platform
import Testing

/// One reading of HOST:PORT for `--listen`, `--mqtt` and `marquee notify`'s address.
@Suite struct HostPortTests {
  @Test func readsEachSpelling() throws {
    let cases: [(String, HostPort.Ports, String, UInt16, Bool)] = [
      ("127.0.0.1:8080", .anyIncludingZero, "127.0.0.1", 8080, false),
      ("0.0.0.0:0", .anyIncludingZero, "0.0.0.0", 0, false),
      ("[::1]:8080", .anyIncludingZero, "::1", 8080, true),
      ("[::ffff:127.0.0.1]:65535", .anyIncludingZero, "::ffff:127.0.0.1", 65535, true),
      ("broker.local", .required(defaultPort: 1883), "broker.local", 1883, false),
      ("[fe80::1]", .required(defaultPort: 1883), "fe80::1", 1883, true),
      ("sign:1", .required(defaultPort: 80), "sign", 1, false),
    ]
    for (text, ports, host, port, bracketed) in cases {
      let read = try HostPort(Substring(text), ports: ports)
      #expect(read == HostPort(host: host, port: port, bracketed: bracketed), "\(text)")
    }
    #expect(HostPort(host: "::1", port: 80).description == "[::1]:80")
    #expect(HostPort(host: "sign", port: 80).description == "sign:80")
  }

  @Test func saysWhatIsWrong() {
    let cases: [(String, HostPort.Ports, HostPort.Invalid)] = [
      ("[::1:8080", .anyIncludingZero, .unclosedBracket),
      ("[::1]8080", .anyIncludingZero, .afterBracket("8080")),
      (":8080", .anyIncludingZero, .noHost),
      ("a/b:80", .required(defaultPort: 80), .noHost),
      ("127.0.0.1", .anyIncludingZero, .noPort),
      ("host", .required(defaultPort: nil), .noPort),
      ("host:0", .required(defaultPort: 1883), .portOutOfRange("0", range: "1-65535")),
      ("host:65536", .anyIncludingZero, .portOutOfRange("65536", range: "0-65535")),
      ("host:-1", .required(defaultPort: 1), .portOutOfRange("-1", range: "1-65535")),
      ("host:http", .required(defaultPort: 1), .portOutOfRange("http", range: "1-65535")),
    ]
    for (text, ports, problem) in cases {
      #expect(throws: problem, "\(text)") { try HostPort(Substring(text), ports: ports) }
    }
    #expect(HostPort.Invalid.portOutOfRange("0", range: "1-65535").description == "the port '0' is not 1-65535")
  }
}
