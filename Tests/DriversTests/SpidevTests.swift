import Foundation
import CKernel
import Platform
import Testing

@testable import Drivers
@testable import MAX7219Core

@Suite struct SpidevTests {
  @Test func ioctlNumbersAreTheKernels() {
    #expect(SpidevTransport.messageRequest(count: 1) == 0x4020_6B00)
    #expect(SpidevTransport.messageRequest(count: 8) == 0x4100_6B00)
    #expect(SpidevTransport.messageRequest(count: 511) == 0x7FE0_6B00)
  }

  @Test func transferRecordsHaveTheKernelLayout() {
    let transactions = SPITransactions(bytes: [1, 2, 3, 4, 5, 6], ends: [4, 6])
    var structs: [spi_ioc_transfer] = []
    SpidevTransport.packTransfers(
      into: &structs, bufferAddress: 0x1122_3344_5566_7788, transactions: transactions,
      from: 0, to: 2, speedHz: 8_000_000)
    // The header's struct, read back as the bytes the kernel gets (its documented offsets).
    let records = structs.withUnsafeBytes { Array($0) }
    #expect(records.count == 64)
    func u64(_ at: Int) -> UInt64 { records[at..<(at + 8)].reversed().reduce(0) { $0 << 8 | UInt64($1) } }
    func u32(_ at: Int) -> UInt32 { records[at..<(at + 4)].reversed().reduce(0) { $0 << 8 | UInt32($1) } }
    #expect(u64(0) == 0x1122_3344_5566_7788 && u64(8) == 0)
    #expect(u32(16) == 4 && u32(20) == 8_000_000)
    #expect(records[26] == 8 && records[27] == 1)  // cs_change between transactions
    #expect(u64(32) == 0x1122_3344_5566_7788 + 4 && u32(48) == 2)
    #expect(records[58] == 8 && records[59] == 0)  // not on the last one
    #expect(records[28..<32].allSatisfy { $0 == 0 } && records[24..<26].allSatisfy { $0 == 0 })
  }

  @Test func aMissingDeviceSaysToEnableSPI() {
    #expect(throws: SPIError.self) { try SpidevTransport(path: "/dev/spidev9.9", speedHz: 1_000_000) }
    do {
      _ = try SpidevTransport(path: "/dev/spidev9.9", speedHz: 1_000_000)
    } catch {
      #expect(error.description == "/dev/spidev9.9: no such device — is SPI enabled (dtparam=spi=on)?")
    }
  }

  @Test func aRegularFileIsNotAnSPIDevice() throws {
    let path = "/tmp/marquee-not-spi-\(getpid())"
    let fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
    close(fd)
    defer { unlink(path) }
    do {
      _ = try SpidevTransport(path: path, speedHz: 1_000_000)
      Issue.record("a regular file was accepted")
    } catch {
      #expect(error.code == ENOTTY)
      #expect(error.description.hasPrefix("\(path): not an SPI device"))
    }
  }

  @Test(.enabled(if: geteuid() == 0, "needs root to make a device node (CI runs as root)"))
  func aNodeWithNoDriverIsNamedAsSuch() throws {
    let path = "/tmp/marquee-spidev-node-\(getpid())"
    try #require(mknod(path, S_IFCHR | 0o600, dev_t(153 << 8)) == 0, "mknod: error \(errno)")
    defer { unlink(path) }
    do {
      _ = try SpidevTransport(path: path, speedHz: 1_000_000)
      Issue.record("a node with no driver was accepted")
    } catch {
      #expect(error.code == ENXIO || error.code == ENODEV)
      #expect(error.description.contains("no SPI device behind this node"))
    }
  }

  @Test func permissionDeniedMentionsTheSPIGroup() {
    let error = SPIError(path: "/dev/spidev0.0", code: EACCES, operation: "open")
    #expect(error.description.contains("'spi' group"))
  }
}
