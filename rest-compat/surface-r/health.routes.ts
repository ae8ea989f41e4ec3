import { HealthDocument } from '../generated/graphql';
import { route } from '../route';

export const healthRoutes = [
  route({ method: 'GET', path: '/health', auth: 'none', document: HealthDocument, variables: () => ({}), data: (r) => r.health }),
];
