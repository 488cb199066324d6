// The conformance kit's public face (docs/conformance.md): run it, pick a reporter, read its catalogue.
export { runConformance } from './run-conformance.ts';
export { ALL_CHECKS } from './checks/all-checks.ts';
export { formatText } from './report-text.ts';
export { formatJunit, formatJson, formatTap, type ReporterName } from './report-formats.ts';
export { readSkipList } from './select-checks.ts';
export { LEVELS, type Check, type CheckResult, type ConformanceOptions, type ConformanceReport, type Level, type Outcome } from './types.ts';
export { closeConnections, sendRequest } from './http-client.ts';
