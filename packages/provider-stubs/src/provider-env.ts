/** The identity service's provider settings pointing at running stubs (`pnpm start`, the tests). */
export function stubProviderEnv(stubs: {
  urls: { passport: string; poap: string; neynar: string; lens: string };
  apiKey: string;
  scorerId: string;
}): Record<string, string> {
  return {
    PASSPORT_API_URL: stubs.urls.passport,
    PASSPORT_API_KEY: stubs.apiKey,
    PASSPORT_SCORER_ID: stubs.scorerId,
    POAP_API_URL: stubs.urls.poap,
    POAP_API_KEY: stubs.apiKey,
    NEYNAR_API_URL: stubs.urls.neynar,
    NEYNAR_API_KEY: stubs.apiKey,
    LENS_API_URL: stubs.urls.lens,
    LENS_API_KEY: stubs.apiKey,
  };
}
