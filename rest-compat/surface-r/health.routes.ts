import { HealthDocument } from '../generated/graphql';
import { route } from '../route';
import { health } from '../openapi/schemas';

export const healthRoutes = [
  route({
    method: 'GET',
    path: '/health',
    auth: 'none',
    doc: { summary: 'Process liveness (no authentication, no backing-store work)', data: health },
    document: HealthDocument,
    variables: () => ({}),
    data: (r) => r.health,
  }),
];
