/**
 * dependency-cruiser: the import rules rtbench's layout rests on
 * (`pnpm lint:arch`, run by `pnpm test`). Type-only imports count: a circle
 * of types is still a circle a reader has to untangle. What runtimes load is
 * checked separately, without type-only imports, by
 * .dependency-cruiser.in-runtime.cjs.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circles: every module can be read after the ones it imports.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'only-the-registry-imports-plug-ins',
      severity: 'error',
      comment:
        'A runtime is one plug-in (runners/<name>), listed in one registry (packages/runtime-registry): no other package, script or suite imports a plug-in, so adding a runtime touches nothing else. Tests may reach into one runtime\'s files to check what it does (what a workerd job leaves behind).',
      from: { path: '^(packages/(?!runtime-registry/)[^/]+/src/|scripts/|bench/)' },
      to: { path: '^runners/' },
    },
    {
      name: 'plug-ins-stand-alone',
      severity: 'error',
      comment: 'A runtime folder does not import another runtime\'s folder.',
      from: { path: '^runners/([^/]+)/' },
      to: { path: '^runners/', pathNot: '^runners/$1/' },
    },
    {
      name: 'nothing-imports-the-cli',
      severity: 'error',
      comment:
        'The CLI is the top of the house (commands: parse, plan, run, emit): no package, plug-in, suite or script imports its files, and the root tests run it as a user does (its own tests are in packages/cli/test). What others need of it lives in the package beneath that does the job (a suite found and bundled: @rtbench/suite-loader). The command reference (docs/reference/commands.md) is written by the CLI\'s own packages/cli/src/write-reference.ts.',
      from: { path: '^(packages/(?!cli/)[^/]+/|runners/|bench/|scripts/|test/)' },
      to: { path: '^packages/cli/' },
    },
    {
      name: 'no-command-imports-another-command',
      severity: 'error',
      comment:
        "A command is parse -> plan -> run -> emit on its own, so changing one never changes another: what commands share lives beneath them (a run measured with its progress: packages/cli/src/run/; the verdict options: verdict-flags.ts; a campaign's loop, folder, budget and exit codes: @rtbench/campaign, its words and pages: packages/cli/src/emit/campaign*.ts; the stop on a signal: @rtbench/run stop.ts; a planner's entry and defaults: its package). A command's own parts (<command>-options.ts, runtimes-platform.ts) are its own.",
      from: { path: '^packages/cli/src/commands/([^/.]+)' },
      to: { path: '^packages/cli/src/commands/', pathNot: ['^packages/cli/src/commands/$1\\.ts$', '^packages/cli/src/commands/$1-[a-z]+\\.ts$'] },
    },
    {
      name: 'suite-loader-sits-below-the-run',
      severity: 'error',
      comment:
        'The suite loader turns a suite name or a file path into code a runtime runs; the CLI plans with it and the run bundles with it, so it imports neither, nor what sits above it (the measurers, reports, profiles, bisection, the runtime registry).',
      from: { path: '^packages/suite-loader/src/' },
      to: { path: '^(packages/(cli|run|measurers|arms|saved-runs|report|verdicts|profile|bisect|host-timed|runtime-registry|stats)/|runners/)' },
    },
    {
      name: 'the-process-sits-below-the-contract',
      severity: 'error',
      comment:
        'packages/process is a runtime process from the host\'s side (started in its own group under containment and the warden, within the memory bound, its protocol read, its outcome judged, ended; a live lockstep case or warm process over it; a binary run briefly). It knows no plug-in, so it imports core only: the contract (runtime-kit) builds its process plug-in base on it, and the plug-ins, the host tools, the run and profile start processes through it.',
      from: { path: '^packages/process/src/' },
      to: { path: '^(packages/(?!core/|process/)[^/]+/|runners/)' },
    },
    {
      name: 'the-plug-in-contract-stands-below-the-host-tools',
      severity: 'error',
      comment:
        'runtime-kit is what a plug-in is written against (the plug-in, engine, variant, spec and releases, the npm-runtime description, the process plug-in base, and the shapes it names: the runtime store a resolve is handed); packages/host holds the host\'s own tools built on it (the runtime store and npm\'s client, valgrind, perf, the bundler, the program cache, atomic file writes, where a tool works). The contract imports none of them, so a plug-in never pulls in the host\'s tools.',
      from: { path: '^packages/runtime-kit/' },
      to: { path: '^packages/host/' },
    },
    {
      name: 'plug-ins-import-the-contract-only',
      severity: 'error',
      comment: 'A runtime folder imports runtime-kit, process (what starts and reads its process) and core only: the host\'s tools (packages/host) are for the run, the CLI, profile and the loaders that drive plug-ins, not for the plug-ins themselves.',
      from: { path: '^runners/' },
      to: { path: '^packages/host/' },
    },
    {
      name: 'the-host-tools-sit-below-the-run',
      severity: 'error',
      comment:
        'packages/host sits beside the plug-in contract, above core, process and runtime-kit: the suite loader, host-timed, the run, profile and the CLI use its tools, so it imports none of them, nor the registry or a plug-in.',
      from: { path: '^packages/host/src/' },
      to: { path: '^(packages/(cli|run|measurers|arms|saved-runs|report|verdicts|profile|bisect|host-timed|runtime-registry|suite-loader|stats|adapters)/|runners/)' },
    },
    {
      name: 'planners-sit-above-the-run',
      severity: 'error',
      comment:
        'bisect, claims and releases are planners: they choose what to measure next (a bisect step, the smallest runs that decide a suite\'s claims, the windows of a release matrix still to measure), keep their state, and hand each run to @rtbench/run through the campaign loop (@rtbench/campaign); the CLI parses and emits around them. So they import the campaign, the run, report\'s views and what sits below, and nothing beneath them imports a planner (the campaign, the run, the measurers, the arms, the saved runs, report, the loaders, the host tools, the process, the contract, the registry).',
      from: { path: '^(packages/(campaign|run|measurers|arms|saved-runs|report|verdicts|host|host-timed|profile|suite-loader|adapters|process|runtime-kit|runtime-registry|core|stats)/|runners/)' },
      to: { path: '^packages/(bisect|claims|releases)/' },
    },
    {
      name: 'planners-render-no-format',
      severity: 'error',
      comment:
        'A planner plans: its next run, what a finished run tells it, its answer as a view. The campaign loop (@rtbench/campaign campaign-loop.ts) tells the command what happens as typed events, and the CLI words them and writes every page and file (packages/cli/src/emit/campaign*.ts), so progress wording and page writing live in one place, not once per planner. So a planner imports from report only its views (@rtbench/report/views: the view builders and shapes), never a reporter, a format name or a wording helper.',
      from: { path: '^packages/(bisect|claims|releases)/src/' },
      to: { path: '^packages/report/', pathNot: '^packages/report/src/views/' },
    },
    {
      name: 'verdicts-sit-below-report',
      severity: 'error',
      comment:
        'packages/verdicts decides (ratios and their false-discovery control, claims\' words, regressions, change points) from saved runs with core\'s schema, the measurers\' records (the blocks of a round) and stats\' tests; report only lays out what it decides, and the planners and the CLI ask it directly. So it imports core, stats and the records only: a decision never depends on how it is printed, nor on the run, a measurer, a planner or the CLI.',
      from: { path: '^packages/verdicts/src/' },
      to: { path: '^(packages/(?!core/|stats/|measurer-records/|verdicts/)[^/]+/|runners/)' },
    },
    {
      name: 'reporting-starts-nothing',
      severity: 'error',
      comment:
        'report lays out what a saved run holds and verdicts decide: views, cells and every format, read from records. So it imports core, stats, verdicts and the measurers\' records (the schemas of their blocks) only, and showing a run (`rtbench report`, the pages, a comparison of saved runs) loads nothing that starts a process: not the run, a measurer, the host tools, the process, a profiler, the loaders or a runtime.',
      from: { path: '^packages/report/src/' },
      to: { path: '^(packages/(?!core/|stats/|verdicts/|measurer-records/|report/)[^/]+/|runners/)' },
    },
    {
      name: 'measurer-records-are-schemas',
      severity: 'error',
      comment:
        'packages/measurer-records holds what each measurer saves beyond the fields every run and round has, and how a saved run is read and worded from that alone: the measurer\'s descriptor holds its record, the loader validates and words a run through the records\' registry, report reads the blocks. So it imports core and stats only: reading a saved run loads no measuring code.',
      from: { path: '^packages/measurer-records/src/' },
      to: { path: '^(packages/(?!core/|stats/|measurer-records/)[^/]+/|runners/)' },
    },
    {
      name: 'saved-runs-sit-below-the-run',
      severity: 'error',
      comment:
        'A saved run is read, checked and re-summarized from its samples (saved-runs, which also holds the record the run fills and finishes); the run writes through it. So saved-runs, and the arms the planners name, import no run and no measurer: reading a file never loads the loop that starts processes, and a saved run is read and worded by its measurer\'s record (measurer-records).',
      from: { path: '^packages/(saved-runs|arms)/src/' },
      to: { path: '^packages/(run|measurers|campaign|bisect|claims|releases|cli)/' },
    },
    {
      name: 'the-results-store-reads-what-the-loader-returns',
      severity: 'error',
      comment:
        "The results store (packages/results-store) keeps the runs the saved-run loader returns, handed to it by the command that reads them: it imports the schema (core) and the saved runs' shapes (verdicts) only, never the loader, the run, a measurer, the host's tools or a runtime, so a store opens without loading what starts processes, and the loader does not know a store exists.",
      from: { path: '^packages/results-store/src/' },
      to: { path: '^(packages/(?!core/|verdicts/|results-store/|stats/|measurer-records/)[^/]+/|runners/)' },
    },
    {
      name: 'arms-measure-nothing',
      severity: 'error',
      comment:
        'The arms are named, resolved and pinned before anything is measured: the command hands them the measurers it lists and the bundle the run will take, so arms import no measurer.',
      from: { path: '^packages/arms/src/' },
      to: { path: '^packages/measurers/' },
    },
    {
      name: 'reporters-sit-on-top',
      severity: 'error',
      comment: 'In report, the reporters render views with shared cells: views, cells and the HTML page never import a reporter (reporters import down). Only reporters/ names formats.',
      from: { path: '^packages/report/src/(?!reporters/|index\\.ts$)' },
      to: { path: '^packages/report/src/reporters/' },
    },
    {
      name: 'the-release-matrix-plans-without-the-run',
      severity: 'error',
      comment:
        'The release matrix (packages/releases) is pure planning over saved runs and its folder: windows, what is still to measure, verdicts and change points; its tests run on made-up runs in a second. One module holds a sitting (sitting.ts), and one its planner (campaign.ts, releasesCampaign: its defaults, its folder named and checked, the plan port handed on): it lists the tracks\' releases through the release listing of @rtbench/arms and hands each window\'s run, planned by the command, to the campaign loop of @rtbench/campaign, as a bisect\'s step does, so every process is still started by the one run loop. The folder is read through @rtbench/saved-runs (folder-files.ts: the saved-run loader that report and compare use), so a matrix\'s runs get every check a saved run gets; its state (state.ts) is read, checked, locked and saved by the campaign\'s state model (@rtbench/campaign campaign-state.ts), as a bisect\'s is; those modules start nothing. The rest imports neither the run, the registry nor a plug-in.',
      from: { path: '^packages/releases/src/(?!sitting\\.ts$|campaign\\.ts$|index\\.ts$|folder-files\\.ts$|state\\.ts$)' },
      to: { path: '^(packages/(campaign|run|measurers|arms|saved-runs|runtime-registry|profile|host-timed|suite-loader|cli)/|runners/)' },
    },
    {
      name: 'a-sitting-goes-through-the-run',
      severity: 'error',
      comment: 'A sitting of the release matrix (packages/releases/src/sitting.ts) is measured through @rtbench/run only: no registry, plug-in, loader or profile of its own, and the CLI plans each window\'s run.',
      from: { path: '^packages/releases/src/' },
      to: { path: '^(packages/(runtime-registry|profile|host-timed|suite-loader|cli|process|bisect|claims)/|runners/)' },
    },
    {
      name: 'core-is-runtime-neutral',
      severity: 'error',
      comment: 'core runs inside every runtime (workerd included) and under the host: no Node.js built-in module.',
      from: { path: '^packages/core/src/' },
      to: { dependencyTypes: ['core'] },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/|^test/fixtures/brought/deno-workspace/|^packages/suite-loader/test/fixtures/templates/' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'default'] },
  },
};
