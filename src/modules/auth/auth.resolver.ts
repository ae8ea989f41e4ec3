import { dutyRows } from '../../access/duties';
import { opsFieldsAllowed } from '../../access/ops-roles';
import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { principalLabel } from '../../access/principal';
import { ApiCredentialView, IssuedApiCredential, IssuedOpsToken, Me, OpsDuty, TokenPairResult } from './auth.types';
import { OpsPrincipal } from './ops-principal.entity';

/**
 * Surface-O authentication. Ops issue, rotate and revoke credentials; anyone may trade a key
 * and secret (or a refresh token) for tokens, which is what `POST /auth/token|refresh` run.
 */
@Resolver()
export class AuthResolver {
  @Mutation(() => IssuedApiCredential, { description: 'Ops: a new key and secret for a distributor (`DT######` or `PT######`). The secret is shown once.' })
  issueApiCredential(@Arg('distributorId', () => String) distributorId: string, @Ctx() ctx: ModuleContext<'auth'>): Promise<IssuedApiCredential> {
    return ctx.services.apiCredential.issue(ctx, distributorId);
  }

  @Mutation(() => IssuedApiCredential, { description: 'Ops: replaces a key and secret; the old pair and every token it produced stop working.' })
  rotateApiCredential(@Arg('apiKey', () => String) apiKey: string, @Ctx() ctx: ModuleContext<'auth'>): Promise<IssuedApiCredential> {
    return ctx.services.apiCredential.rotate(ctx, apiKey);
  }

  @Mutation(() => Boolean, { description: 'Ops: revokes a key; its access and refresh tokens stop working at once.' })
  revokeApiCredential(@Arg('apiKey', () => String) apiKey: string, @Ctx() ctx: ModuleContext<'auth'>): Promise<boolean> {
    return ctx.services.apiCredential.revoke(ctx, apiKey);
  }

  @Query(() => String, { description: "Ops: the name of the principal whose token is in use; the ops console's actions are recorded under it." })
  opsTokenName(@Ctx() ctx: ModuleContext<'auth'>): string {
    ctx.access.requireOps();
    return ctx.access.opsName!;
  }

  @Mutation(() => IssuedOpsToken, {
    description:
      "Ops: rotates the ops token in use: a new token of the caller's own principal (shown once); every other token of it, this one included, stops working at once on every instance. Refused (UNAUTHENTICATED) once the token in use was revoked.",
  })
  rotateOpsToken(@Ctx() ctx: ModuleContext<'auth'>): Promise<IssuedOpsToken> {
    ctx.access.requireOps();
    const p = ctx.access.principal;
    return ctx.services.opsToken.rotate(ctx.em, p.kind === 'ops' ? p : { id: null, tokenId: null });
  }

  @Query(() => [OpsDuty], {
    description:
      'Ops: the duty matrix (src/access/duties.ts), read-only: per action, the mutations that end it with their role, and whether a second principal must take part.',
  })
  opsDuties(@Ctx() ctx: ModuleContext<'auth'>): OpsDuty[] {
    ctx.access.requireOps();
    return dutyRows(ctx.services.opsRules);
  }

  @Query(() => Me, { description: 'The caller: its principal and, for ops, its roles (what the console shows actions by).' })
  me(@Ctx() ctx: ModuleContext<'auth'>): Me {
    const p = ctx.access.principal;
    ctx.access.requireCaller();
    return {
      kind: p.kind,
      principal: principalLabel(p)!,
      name: p.kind === 'ops' ? p.name : null,
      roles: [...ctx.access.opsRoles],
      mayCall: ctx.access.isOps ? opsFieldsAllowed(ctx.services.opsRules, ctx.access.opsRoles) : [],
    };
  }

  @Mutation(() => IssuedOpsToken, {
    description:
      'Ops (`admin`): a NEW principal `name` with `roles` and its first token, shown once. Only `viewer`: a principal with `operator`, `approver` or `admin` is asked for with `requestOpsPrincipal`, which another admin approves. A name that exists (trimmed, NFKC, case-folded) is refused CONFLICT: a lost token is reset with `requestOpsTokenReset`.',
  })
  issueOpsToken(
    @Arg('name', () => String) name: string,
    @Arg('roles', () => [String]) roles: string[],
    @Ctx() ctx: ModuleContext<'auth'>,
  ): Promise<IssuedOpsToken> {
    ctx.access.requireRole('admin');
    return ctx.services.opsToken.issueViewer(ctx.em, name, roles, principalLabel(ctx.access.principal)!);
  }

  @Mutation(() => Int, {
    description:
      'Ops (`admin`): revokes every token of the principal `name` at once, on every instance (its open sockets close); answers how many. Serialised with rotations: once it answers, no token of that principal works.',
  })
  revokeOpsToken(@Arg('name', () => String) name: string, @Ctx() ctx: ModuleContext<'auth'>): Promise<number> {
    ctx.access.requireRole('admin');
    return ctx.services.opsToken.revokeByName(ctx.em, name);
  }

  @Query(() => [OpsPrincipal], { description: 'Ops: every ops principal with its roles, by name (never a token).' })
  opsPrincipals(@Ctx() ctx: ModuleContext<'auth'>): Promise<OpsPrincipal[]> {
    ctx.access.requireOps();
    return ctx.services.opsToken.list(ctx.em);
  }

  @Query(() => [ApiCredentialView], { description: "Ops: a distributor's surface-O keys (never their secrets)." })
  apiCredentials(@Arg('distributorId', () => String) distributorId: string, @Ctx() ctx: ModuleContext<'auth'>): Promise<ApiCredentialView[]> {
    return ctx.services.apiCredential.list(ctx, distributorId);
  }

  @Mutation(() => TokenPairResult, { description: 'Surface O `POST /auth/token`: an access token (15 minutes) and a refresh token.' })
  issueAccessToken(
    @Arg('apiKey', () => String, { nullable: true }) apiKey: string | null,
    @Arg('apiSecret', () => String, { nullable: true }) apiSecret: string | null,
    @Ctx() ctx: ModuleContext<'auth'>,
  ): Promise<TokenPairResult> {
    return ctx.services.accessToken.issue(ctx.em, apiKey, apiSecret);
  }

  @Mutation(() => TokenPairResult, { description: 'Surface O `POST /auth/refresh`: rotates the refresh token; a reused one revokes its family.' })
  refreshAccessToken(
    @Arg('refreshToken', () => String, { nullable: true }) refreshToken: string | null,
    @Ctx() ctx: ModuleContext<'auth'>,
  ): Promise<TokenPairResult> {
    return ctx.services.accessToken.refresh(ctx.em, refreshToken);
  }
}
