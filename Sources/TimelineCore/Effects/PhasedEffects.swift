import MatrixCore

/// Effects that work in halves: the old content goes in the first half of the transition,
/// the new content comes in the second.
public final class PhasedEffect: TransitionEffect {
  /// What happens within the half.
  public enum Kind: Sendable {
    /// The cut: the old content until its half ends, the new one from the start of its half.
    case print
    /// A brightness ramp, carried in the frame (a MAX7219's intensity, dimmer dots).
    case fade
    /// Scaling about the centre between `from` (entering start) and 1.
    case zoom(from: Double, dissolve: Bool)
    /// One column (or, if `blank`, all but one) visible, sweeping across.
    case scanColumns(blank: Bool)
    /// One row (or, if `blank`, all but one) visible, sweeping down (in) or up (out).
    case scanRows(blank: Bool)
  }

  public let kind: Kind
  public let name: String
  public let summary: String

  init(kind: Kind, name: String, summary: String) {
    (self.kind, self.name, self.summary) = (kind, name, summary)
  }
  public var timing: EffectTiming { .halves }
  public var stage: EffectStage {
    switch kind {
    case .zoom: .geometry
    case .fade: .light
    default: .mask
    }
  }

  /// The phased effects of the catalog.
  public static let all: [PhasedEffect] = [
    PhasedEffect(kind: .print, name: "print", summary: "a cut: the new text at once, halfway through"),
    PhasedEffect(kind: .fade, name: "fade",
                 summary: "the old text dims to dark, then the new text brightens"),
    PhasedEffect(kind: .zoom(from: 0.5, dissolve: false), name: "zoom-in",
                 summary: "the new text grows from half size to full (the old shrinks away)"),
    PhasedEffect(kind: .zoom(from: 1.5, dissolve: false), name: "zoom-out",
                 summary: "the old text grows to 1.5x and leaves; the new one shrinks into place"),
    PhasedEffect(kind: .zoom(from: 0.5, dissolve: true), name: "scale-fade-in",
                 summary: "zoom in while dissolving in"),
    PhasedEffect(kind: .zoom(from: 1.5, dissolve: true), name: "scale-fade-out",
                 summary: "zoom out while dissolving out"),
    PhasedEffect(kind: .scanColumns(blank: false), name: "scan-horizontal",
                 summary: "one visible column sweeps across, then the whole text"),
    PhasedEffect(kind: .scanColumns(blank: true), name: "scan-horizontal-x",
                 summary: "one blank column sweeps across the text"),
    PhasedEffect(kind: .scanRows(blank: false), name: "scan-vertical",
                 summary: "one visible row sweeps down, then the whole text"),
    PhasedEffect(kind: .scanRows(blank: true), name: "scan-vertical-x",
                 summary: "one blank row sweeps down the text"),
  ]

  public func apply(
    to layer: inout Layer, progress q: Double, role: TransitionRole, context: EffectContext,
    scratch: inout Framebuffer
  ) {
    // The layer is untouched at its resting end and gone at the other.
    guard layer.settle(progress: q, role: role) else { return }
    // How far towards resting the layer is: 1 at rest, 0 gone.
    let presence = role == .entering ? q : 1 - q
    switch kind {
    case .print:
      break
    case .fade:
      layer.brightness *= presence
    case .zoom(let from, let dissolve):
      // Entering: from `from` to full size. Exiting: the entry played backwards.
      let factor = from + (1 - from) * presence
      layer.scale(by: factor, scratch: &scratch)
      if dissolve {
        layer.keepDithered(below: presence * 64)
      }
    case .scanColumns(let blank):
      let column = min(context.width - 1, Int(q * Double(context.width)))
      layer.maskColumns { x in (x == column) != blank }
    case .scanRows(let blank):
      let step = min(context.height - 1, Int(q * Double(context.height)))
      let row = role == .entering ? step : context.height - 1 - step
      layer.maskRows { y in (y == row) != blank }
    }
  }
}
