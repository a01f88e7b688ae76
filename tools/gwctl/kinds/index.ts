/**
 * The kinds in reference order, each with its transport. Which credential group serves each kind
 * is decided here and only here (docs/using/configuration-as-code.md lists it).
 */
import type { Kind } from '../model';
import { apis } from './apis';
import { hooks } from './hooks';
import type { KindAdapter } from './kind';
import { oauthClients } from './oauth-clients';
import { policies } from './policies';
import { templates } from './templates';

export const ADAPTERS: Record<Kind, KindAdapter> = { hook: hooks, template: templates, api: apis, policy: policies, 'oauth-client': oauthClients };
