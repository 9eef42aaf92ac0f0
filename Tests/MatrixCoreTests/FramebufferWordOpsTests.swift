import MarqueeTesting
import MatrixCore
import Testing

/// The word-at-a-time operations effects use, each checked against a pixel-by-pixel
/// definition on random framebuffers of awkward widths.
@Suite struct FramebufferWordOpsTests {
  static let sizes = [(1, 1), (7, 3), (32, 8), (63, 5), (64, 2), (65, 4), (130, 9)]

  @Test func shiftMovesPixelsAndDarkensWhatIsUncovered() {
    var random = SplitMix64(seed: 31)
    for (width, height) in FramebufferWordOpsTests.sizes {
      let original = randomFramebuffer(width: width, height: height, using: &random)
      for dx in [-width - 1, -width, -65, -64, -63, -9, -1, 0, 1, 8, 63, 64, 65, width] {
        for dy in [-height, -2, -1, 0, 1, 3, height] {
          var shifted = original
          shifted.shift(dx: dx, dy: dy)
          var expected = Framebuffer(width: width, height: height)
          for y in 0..<height {
            for x in 0..<width { expected[x, y] = original[x - dx, y - dy] }
          }
          #expect(shifted == expected, "\(width)x\(height) by \(dx), \(dy)")
        }
      }
    }
  }

  @Test func ditherKeepsPixelsOfLowRank() {
    var random = SplitMix64(seed: 32)
    for (width, height) in FramebufferWordOpsTests.sizes {
      let original = randomFramebuffer(width: width, height: height, using: &random)
      for level in [-1.0, 0, 0.5, 1, 17.3, 32, 63.9, 64, 70] {
        for inverted in [false, true] {
          var kept = original
          kept.keepDithered(below: level, inverted: inverted)
          var expected = original
          for y in 0..<height {
            for x in 0..<width where (Double(Framebuffer.ditherRank(x: x, y: y)) < level) == inverted {
              expected[x, y] = false
            }
          }
          #expect(kept == expected, "\(width)x\(height) level \(level) inverted \(inverted)")
        }
      }
    }
    // The matrix holds each rank once.
    #expect(Set((0..<64).map { Framebuffer.ditherRank(x: $0 % 8, y: $0 / 8) }) == Set(0..<64))
  }

  @Test func rankedMaskKeepsPixelsBelowTheThreshold() {
    var random = SplitMix64(seed: 33)
    for (width, height) in FramebufferWordOpsTests.sizes {
      let original = randomFramebuffer(width: width, height: height, using: &random)
      let ranks = (0..<(width * height)).map { _ in Int32.random(in: 0..<Int32(width * height), using: &random) }
      for threshold in [-3.0, 0, 0.5, 1, Double(width * height) / 3, Double(width * height), 1e12] {
        for inverted in [false, true] {
          var kept = original
          kept.keepRanked(ranks, below: threshold, inverted: inverted)
          var expected = original
          for y in 0..<height {
            for x in 0..<width where (Double(ranks[y * width + x]) < threshold) == inverted { expected[x, y] = false }
          }
          #expect(kept == expected, "\(width)x\(height) threshold \(threshold) inverted \(inverted)")
        }
      }
    }
  }

  @Test func scalingTakesTheNearestSourcePixel() {
    var random = SplitMix64(seed: 34)
    for (width, height) in FramebufferWordOpsTests.sizes {
      let source = randomFramebuffer(width: width, height: height, using: &random)
      for factor in [0.25, 0.5, 0.9, 1, 1.3, 2, 7] {
        var scaled = randomFramebuffer(width: width, height: height, using: &random)
        scaled.drawScaled(source, by: factor)
        var expected = Framebuffer(width: width, height: height)
        let cx = Double(width) / 2, cy = Double(height) / 2
        for y in 0..<height {
          for x in 0..<width {
            let sx = Int(((Double(x) + 0.5 - cx) / factor + cx).rounded(.down))
            let sy = Int(((Double(y) + 0.5 - cy) / factor + cy).rounded(.down))
            expected[x, y] = source[sx, sy]
          }
        }
        #expect(scaled == expected, "\(width)x\(height) by \(factor)")
        var full = Framebuffer(width: width, height: height)
        full.fill(true)
        var extent = Framebuffer(width: width, height: height), fullScaled = extent
        extent.fillScaledExtent(by: factor)
        fullScaled.drawScaled(full, by: factor)
        #expect(extent == fullScaled, "extent of \(width)x\(height) by \(factor)")
      }
    }
  }

  @Test func columnPatternsLightAndKeepTheirColumns() {
    var random = SplitMix64(seed: 36)
    for (width, height) in FramebufferWordOpsTests.sizes {
      let original = randomFramebuffer(width: width, height: height, using: &random)
      let pattern = random.next()
      func inPattern(_ x: Int) -> Bool { pattern & (0x8000_0000_0000_0000 >> UInt64(x % 64)) != 0 }
      var lit = original, kept = original
      lit.lightColumns(repeating: pattern)
      kept.keepColumns(repeating: pattern)
      var expectedLit = original, expectedKept = original
      for y in 0..<height {
        for x in 0..<width {
          if inPattern(x) { expectedLit[x, y] = true } else { expectedKept[x, y] = false }
        }
      }
      #expect(lit == expectedLit, "\(width)x\(height)")
      #expect(kept == expectedKept, "\(width)x\(height)")
      // Counted word by word (padding included) against pixel by pixel: no stray padding.
      #expect(lit.litCount == (0..<height).reduce(0) { n, y in n + (0..<width).filter { lit[$0, y] }.count })
    }
  }

  @Test func maskedAssignKeepsCoveredPixelsOnly() {
    var random = SplitMix64(seed: 37)
    for (width, height) in FramebufferWordOpsTests.sizes {
      let pixels = randomFramebuffer(width: width, height: height, using: &random)
      let coverage = randomFramebuffer(width: width, height: height, using: &random)
      let hidden = randomFramebuffer(width: width, height: height, using: &random)
      var result = randomFramebuffer(width: width, height: height, using: &random)
      let anyLit = result.assign(pixels, maskedBy: coverage, except: hidden)
      var expected = Framebuffer(width: width, height: height)
      for y in 0..<height {
        for x in 0..<width { expected[x, y] = pixels[x, y] && coverage[x, y] && !hidden[x, y] }
      }
      #expect(result == expected, "\(width)x\(height)")
      #expect(anyLit == !expected.isBlank)
      // Nothing covered: nothing lit, and it says so.
      let anythingLit = result.assign(pixels, maskedBy: Framebuffer(width: width, height: height))
      #expect(!anythingLit)
      #expect(result.isBlank)
    }
  }

  @Test func wholeRowBlitsInEveryModeMatchPixels() {
    var random = SplitMix64(seed: 35)
    for (width, height) in FramebufferWordOpsTests.sizes {
      for mode in [BlitMode.copy, .or, .xor, .clear, .and] {
        let source = randomFramebuffer(width: width, height: height, using: &random)
        let before = randomFramebuffer(width: width, height: height, using: &random)
        for dy in [-1, 0, 2] {
          var drawn = before
          drawn.draw(source, atX: 0, y: dy, mode: mode)
          var expected = before
          for y in 0..<height where y - dy >= 0 && y - dy < height {
            for x in 0..<width {
              let s = source[x, y - dy], d = before[x, y]
              expected[x, y] = switch mode {
              case .copy: s
              case .or: d || s
              case .xor: d != s
              case .clear: d && !s
              case .and: d && s
              }
            }
          }
          #expect(drawn == expected, "\(width)x\(height) \(mode) at y \(dy)")
          #expect(drawn.litCount == (0..<height).reduce(0) { n, y in n + (0..<width).filter { drawn[$0, y] }.count },
                  "padding stays dark")
        }
      }
    }
  }
}
