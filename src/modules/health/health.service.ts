import type { Clock } from '../../common/clock';

export interface HealthRecord {
  status: 'ok';
  timestamp: string;
  env: string;
}

/** Process liveness. Touches no backing store, so a database outage does not read as a dead process. */
export class HealthService {
  constructor(
    private readonly clock: Clock,
    private readonly env: string,
  ) {}

  check(): HealthRecord {
    return { status: 'ok', timestamp: this.clock.now().toISOString(), env: this.env };
  }
}
