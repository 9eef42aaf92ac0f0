// What `import Marquee` brings: the timeline core (timelines, effects, zones) as well as the
// player and the sign of this module.
@_exported import TimelineCore
