/// The chip step a frame brightness maps to (fades and the brightness option), with
/// `fullStep` + 1 steps up to full, or `nil` when the frame is dark.
package func dimmingStep(for brightness: Double, fullStep: Int) -> Int? {
  guard brightness > 0 else { return nil }
  return max(0, min(fullStep, Int((brightness * Double(fullStep + 1)).rounded(.up)) - 1))
}
