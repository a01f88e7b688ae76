/**
 * gwctl: an organisation's configuration as code (docs/using/configuration-as-code.md).
 * Exit codes: 0 done (diff: no change), 2 diff found changes, 1 an error (sync: drift or a failed
 * step included).
 */
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { GwctlError } from './client';
import { dump } from './commands/dump';
import type { Io } from './commands/io';
import { validate } from './commands/validate';
import { diff } from './commands/diff';
import { sync } from './commands/sync';
import { gatewayNginx } from './commands/gateway-nginx';
import { usage } from './commands/usage';
import { offboard } from './commands/offboard';
import { exportOrg, importOrg } from './commands/transfer';

const HELP = `gwctl: an organisation's gateway configuration as code

Usage:
  gwctl dump     [--dir DIR]                 write the organisation's configuration to DIR
  gwctl validate [--dir DIR] [--org]         check DIR offline: schemas of the service's OpenAPI
                                             document and references across the folder; --org:
                                             references may also name the organisation's objects
  gwctl diff     [--dir DIR] [--output text|json] [--select-tag TAG]... [--prune] [--plan-out FILE]
                                             the plan: creates, updates (field by field), deletes;
                                             exit 0 no change, 2 changes, 1 error
  gwctl sync     [--dir DIR] [--plan FILE] [--select-tag TAG]... [--prune] [--dry-run]
                 [--secrets-file FILE]       apply the plan (If-Match, Idempotency-Key);
                                             drift or a failed step: exit 1

  gwctl gateway nginx --out FILE --server-name NAME... [--listen ADDR] [--watch [--interval S]]
                 [--nginx-conf FILE] [--nginx-prefix DIR] [--nginx BIN] [--status-file FILE]
                 [--gateway-id NAME]         the installation's routing table as an nginx include;
                                             --watch follows it, checks (nginx -t), swaps, reloads;
                                             reports what it serves under NAME (nginx-<host>)

  gwctl usage    [--month YYYY-MM] [--org-id ID] [--output text|json|csv]
                                             a month's usage as the check decided it (admin):
                                             every organisation, or one per API and day

  gwctl offboard --org-id ID [--wait]        delete an organisation with everything it owns (admin);
                                             --wait follows the run to its end

  gwctl export   --org-id ID --out FILE [--secrets]
                                             the organisation as one file (admin); --secrets also
                                             carries its webhooks' signing secrets
  gwctl import   --file FILE [--background] [--wait]
                                             an exported organisation into this installation (admin);
                                             --background writes it after the answer, --wait follows
                                             a background import to its end

Options:
  --dir DIR         the configuration folder (default: ./gw-config)
  --select-tag TAG  only objects carrying TAG (repeat: all of them); see docs/using/configuration-as-code.md
  --prune           delete objects of the organisation the folder does not have
  --plan FILE       apply the plan diff wrote (--plan-out): objects changed since it was made
                    are drift and are left as they are
  --secrets-file F  where sync writes the secrets of OAuth clients it creates (never printed)

Environment (credentials are never flags):
  GW_URL            the stage, such as http://127.0.0.1:8080
  GW_DASHBOARD_KEY  a dashboard user's access key: the organisation to manage
  GW_GATEWAY_SECRET the gateway credential (gateway commands only)
  GW_ADMIN_SECRET   the installation's admin credential (usage, offboard, export and import only)
  plus every \${env:NAME} the folder's files name (listed in its gwctl.yaml)

API keys are credentials, not configuration: gwctl neither dumps nor syncs them.
`;

export async function run(argv: string[], io: Io): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        dir: { type: 'string', default: './gw-config' },
        output: { type: 'string', default: 'text' },
        'select-tag': { type: 'string', multiple: true, default: [] },
        prune: { type: 'boolean', default: false },
        org: { type: 'boolean', default: false },
        'dry-run': { type: 'boolean', default: false },
        plan: { type: 'string' },
        'plan-out': { type: 'string' },
        'secrets-file': { type: 'string' },
        out: { type: 'string' },
        listen: { type: 'string', default: '8000' },
        'server-name': { type: 'string', multiple: true, default: [] },
        watch: { type: 'boolean', default: false },
        interval: { type: 'string', default: '1' },
        nginx: { type: 'string', default: '/usr/sbin/nginx' },
        'nginx-conf': { type: 'string' },
        'nginx-prefix': { type: 'string' },
        'status-file': { type: 'string' },
        'gateway-id': { type: 'string', default: `nginx-${hostname()}` },
        month: { type: 'string' },
        'org-id': { type: 'string' },
        wait: { type: 'boolean', default: false },
        background: { type: 'boolean', default: false },
        secrets: { type: 'boolean', default: false },
        file: { type: 'string' },
        polls: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    const [command, ...rest] = positionals;
    if (command === 'gateway') {
      const [kind, ...extra] = rest;
      if (kind !== 'nginx' || extra.length) throw new GwctlError('gateway renders for nginx only: gwctl gateway nginx --out FILE ...');
      if (!values.out) throw new GwctlError('--out FILE: the file nginx includes');
      const interval = Number(values.interval);
      if (!(interval > 0)) throw new GwctlError('--interval is a number of seconds above 0');
      return await gatewayNginx(
        {
          out: values.out,
          listen: values.listen,
          serverNames: values['server-name'],
          watch: values.watch,
          interval,
          nginx: values.nginx,
          nginxConf: values['nginx-conf'],
          nginxPrefix: values['nginx-prefix'],
          statusFile: values['status-file'],
          gatewayId: values['gateway-id'],
          polls: values.polls === undefined ? undefined : Number(values.polls),
        },
        io,
      );
    }
    if (values.help || !command) {
      io.out(HELP);
      return values.help ? 0 : 1;
    }
    if (rest.length) throw new GwctlError(`unexpected arguments: ${rest.join(' ')}`);
    if (command === 'usage') {
      if (values.output !== 'text' && values.output !== 'json' && values.output !== 'csv') throw new GwctlError('--output is text, json or csv');
      return await usage({ month: values.month, org: values['org-id'], output: values.output }, io);
    }
    if (command === 'offboard') return await offboard({ org: values['org-id'], wait: values.wait }, io);
    if (command === 'export') return await exportOrg({ org: values['org-id'], out: values.out, secrets: values.secrets }, io);
    if (command === 'import') return await importOrg({ file: values.file, background: values.background, wait: values.wait }, io);
    if (values.output !== 'text' && values.output !== 'json') throw new GwctlError('--output is text or json');
    switch (command) {
      case 'dump':
        return await dump(values.dir, io);
      case 'validate':
        return await validate(values.dir, io, values.org);
      case 'diff':
        return await diff({ dir: values.dir, selectTags: values['select-tag'], prune: values.prune, output: values.output, planOut: values['plan-out'] }, io);
      case 'sync':
        return await sync(
          {
            dir: values.dir,
            selectTags: values['select-tag'],
            prune: values.prune,
            plan: values.plan,
            dryRun: values['dry-run'],
            secretsFile: values['secrets-file'],
          },
          io,
        );
      default:
        throw new GwctlError(`unknown command ${command} (dump, validate, diff, sync, gateway, usage, offboard, export, import; --help)`);
    }
  } catch (e) {
    if (e instanceof GwctlError || (e instanceof TypeError && 'code' in e && String(e.code).startsWith('ERR_PARSE_ARGS'))) {
      io.err(`gwctl: ${e.message}`);
      return 1;
    }
    throw e;
  }
}
