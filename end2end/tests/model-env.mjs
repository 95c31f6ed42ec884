// Ports and secrets shared by the Playwright config (which starts the servers) and
// model.spec.mjs (which checks them).
export const llmPort = process.env.SOU_E2E_LLM_PORT || '3918';
export const mockPort = process.env.SOU_E2E_MOCK_PORT || '3919';
// The OpenAI key Sou reads from its environment: it must appear in no page, server-fn
// response, stream or log line.
export const canary = 'sk-canary-e2e-7f3a9c1d5b2e8046';
// The only key the mock accepts for Mistral (saved through the settings page).
export const mistralKey = 'mk-good-e2e-4242';
// A key the mock rejects: as secret as a good one.
export const rejectedKey = 'mk-canary-rejected-e2e-9911';
