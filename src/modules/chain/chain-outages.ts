import { OutageLog } from '../../common/outage-log';

/**
 * One OutageLog per chain for a background worker (sender, follower): a chain whose node cannot
 * be reached or answers errors is logged once when it goes and once when it is back, never a line
 * per pass, while the worker goes on with the other chains.
 */
export class ChainOutages {
  private readonly logs = new Map<string, OutageLog>();

  constructor(private readonly worker: string) {}

  of(chainId: string): OutageLog {
    let log = this.logs.get(chainId);
    if (!log) this.logs.set(chainId, (log = new OutageLog(`${this.worker}: chain ${chainId}`)));
    return log;
  }
}
