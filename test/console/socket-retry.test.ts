import { retryable } from '../../console/src/api/socket-retry';
import { WS_CLOSE } from '../../src/transports/websocket/websocket';

/** The console's socket gives up on a close for its credential, and retries anything else. */
describe('ops console: when its GraphQL socket reconnects', () => {
  it('never after 4401 (credential ended) or 4403 (refused at connection): the same token would be refused forever', () => {
    expect(retryable({ code: WS_CLOSE.credentialEnded, reason: 'Unauthorized' })).toBe(false);
    expect(retryable({ code: WS_CLOSE.forbidden, reason: 'Forbidden' })).toBe(false);
  });

  it('after a lost network, a restart or too many attempts', () => {
    for (const code of [1006, 1001, 1011, 1012, WS_CLOSE.rateLimited]) expect(retryable({ code })).toBe(true);
  });
});
