/// The candidate nearest to `name` (letter case aside) for a "did you mean" suggestion, or
/// `nil` when none is near: within two edits, or a third of the name's length.
public func closestName(to name: String, among candidates: [String]) -> String? {
  var best: (String, Int)?
  for candidate in candidates {
    let distance = editDistance(candidate.lowercased(), name.lowercased())
    if distance <= max(2, name.count / 3), distance < (best?.1 ?? .max) { best = (candidate, distance) }
  }
  return best?.0
}

/// The number of single-character insertions, deletions and substitutions that turn `a`
/// into `b` (for "did you mean" suggestions).
public func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a), b = Array(b)
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var row = Array(0...b.count)
  for i in 1...a.count {
    var previousDiagonal = row[0]
    row[0] = i
    for j in 1...b.count {
      let above = row[j]
      row[j] = min(row[j] + 1, row[j - 1] + 1, previousDiagonal + (a[i - 1] == b[j - 1] ? 0 : 1))
      previousDiagonal = above
    }
  }
  return row[b.count]
}
