export { StreamHealthMonitor, type HealthSink, type HealthSource, type NewHealthEvent } from "./monitor";
export { healthSink, type HealthListener } from "./sink";
export { streamHealthReport } from "./report";
