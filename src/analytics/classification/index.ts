/** Classification of a request: human, AI agent (from the ai.robots.txt table in `data/`) or other bot. */
export { type AiAgentTable, buildAiAgentTable } from './ai-agent-table-builder.ts';
export { aiReferrerOf } from './ai-referrers.ts';
export { type Classifier, createClassifier } from './classify.ts';
export { prefersMarkdown } from './markdown-preference.ts';
export { signatureAgentHost, signingAgentOf } from './signature-agent.ts';
export { exportColumn, type TrafficCategory, trafficCategories } from './traffic-category.ts';
