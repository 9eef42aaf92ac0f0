// The headers in include/ are the target; this file gives SwiftPM something to build.
