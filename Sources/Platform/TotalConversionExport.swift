/// The total conversions (`Int64(saturating:)` and the rest) come with Platform, as they did
/// when they lived here: they moved to a module of their own so that the engine's timelines
/// can use them without the operating system (an Embedded Swift build has no Platform).
@_exported import TotalConversion
