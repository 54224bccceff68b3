/** §B17.3: the statistics are always in the dashboard's Result page, on the public Result tab only when the initiator ticked "show insights". */
export const showsInsightsPublicly = (project: { showInsights: boolean }) => project.showInsights;
