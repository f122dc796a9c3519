/** The reports module's public entry: what other modules and the job registry may use of it. */
export { queueStudyReports, reportSeriesOf, STUDY_REPORTS_JOB } from './reports.service.js';
export { studyReportsJob } from './report.job.js';
