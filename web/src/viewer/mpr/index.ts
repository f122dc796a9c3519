/*
 * Multiplanar reconstruction, for the diagnostic viewer: the button that offers it for a series,
 * the view that replaces the stack viewer while it is open, and the rule of which series qualify.
 */
export { MprButton } from './MprButton';
export { default as MprView, type MprViewProps } from './MprView';
export { mprEligibility, type MprEligibility, type MprGeometry, type MprSeries } from './mpr-eligibility';
