// swift-tools-version: 6.0
// libFuzzer targets for marquee's readers. Build and run with ./run.sh SECONDS.
import PackageDescription

let targets = [
  ("FuzzBDF", ["BitmapFonts"]), ("FuzzHex", ["BitmapFonts"]), ("FuzzPSF", ["BitmapFonts"]),
  ("FuzzPCF", ["BitmapFonts"]), ("FuzzGzip", ["BitmapFonts"]), ("FuzzBoard", ["Drivers", "MatrixCore"]),
  ("FuzzFeedLine", ["SignService", "Marquee", "MatrixCore"]), ("FuzzDocuments", ["SignService", "Marquee", "MatrixCore"]), ("FuzzLayout", ["BitmapFonts"]), ("FuzzHTTPRequest", ["HTTP"]),
  ("FuzzMQTTPacket", ["MQTT"]), ("FuzzPicture", ["BitmapFonts"]),
  ("FuzzContentRoutes", ["SignService", "Marquee", "SimpleJSON"]), ("FuzzFleetState", ["MarqueeCLI", "MQTT"]),
  ("FuzzLiveData", ["LiveData"]),
]

let package = Package(
  name: "MarqueeFuzz",
  dependencies: [.package(name: "marquee", path: "..")],
  // Library targets: run.sh links each with libFuzzer's main (-sanitize=fuzzer).
  targets: targets.map { name, products in
    .target(name: name, dependencies: products.map { .product(name: $0, package: "marquee") })
  },
  swiftLanguageModes: [.v6]
)
