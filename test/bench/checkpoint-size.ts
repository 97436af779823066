import { memoryBus } from '@interlude/bus';
import { type Checkpoint, createRuntime } from '@interlude/core';
import { aiSdkVariant } from './ai-sdk-variant.js';
import { createBareSdkLoop } from './bare-sdk-loop.js';
import type { BenchConfig } from './bench-config.js';
import { defineChatRefundAgent } from './chat-refund-agent.js';
import { FINAL_TEXT } from './refund-chat-responder.js';
import { expectScenario } from './scenario-error.js';
import { round } from './statistics.js';

export interface CheckpointSample {
  /** Model→tool turns in the conversation when it paused (the refund turn is the last). */
  turns: number;
  checkpointBytes: number;
  messagesBytes: number;
  /** Checkpoint bytes over message bytes: what the checkpoint adds to the conversation itself. */
  ratio: number;
  /** Checkpoint bytes that are not the messages: constant when nothing is stored twice. */
  overheadBytes: number;
}

export interface CheckpointSizeResult {
  /** The refund scenario's checkpoint (one turn); goal ≤ 1.5× the AI SDK's paused state for it. */
  scenario: CheckpointSample & {
    goal: number;
    met: boolean;
    /** What the Vercel AI SDK keeps for the same pause (its messages, JSON), and the checkpoint over it. */
    aiSdkStateBytes: number;
    aiSdkRatio: number;
    /** Bytes of each checkpoint key but `messages` (with its JSON punctuation): where the overhead is. */
    overheadByKey: Record<string, number>;
    /** What the hand-written loop stores for the same pause, and the checkpoint over it. */
    bareStateBytes: number;
    bareRatio: number;
    /**
     * The same checkpoint with no key name outside its messages (each object written as the array
     * of its values): what its information takes in JSON under any names at all. The floor of the
     * ratio goal.
     */
    namelessBytes: number;
    namelessRatio: number;
  };
  growth: CheckpointSample[];
  /** Bytes each added turn costs, between consecutive sizes: equal when growth is linear. */
  bytesPerTurn: { from: number; to: number; bytes: number }[];
  /** Largest over smallest of `bytesPerTurn`; goal ≤ 1.1 (linear). */
  linearity: number;
  linear: boolean;
  /** Every earlier call id appears in the checkpoint exactly as often as in its messages. */
  storedOnce: boolean;
}

function bytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

function overheadByKey(checkpoint: Checkpoint): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const [key, value] of Object.entries(checkpoint)) {
    if (key !== 'messages') sizes[key] = bytes({ [key]: value }) - 1; // `"key":value,` inside the object
  }
  return sizes;
}

/** `value` with every object turned into the array of its values: JSON with no key names. */
function valuesOnly(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(valuesOnly);
  if (value !== null && typeof value === 'object') return Object.values(value).map(valuesOnly);
  return value;
}

/** The checkpoint's bytes with no key name outside its messages, which stay as the provider wrote them. */
function namelessBytes(checkpoint: Checkpoint): number {
  return bytes(Object.entries(checkpoint).map(([key, value]) => (key === 'messages' ? value : valuesOnly(value))));
}

function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

/**
 * Benchmark 2: the size of a checkpoint against the conversation it holds, for the refund
 * scenario and for conversations of many turns, each paused for real through `openaiChat()` and
 * resumed to its answer so a big checkpoint is proven usable, not just measured.
 */
export async function runCheckpointSize(config: BenchConfig, baseURL: string): Promise<CheckpointSizeResult> {
  const runtime = createRuntime({ bus: memoryBus() });
  const { agent, work } = defineChatRefundAgent(runtime, baseURL);
  let storedOnce = true;

  let scenarioCheckpoint: Checkpoint | undefined;

  async function pauseAt(turns: number): Promise<CheckpointSample> {
    const lookups = turns - 1;
    const before = { ...work.runs };
    const params = { ticketId: turns, lookups };
    const paused = await agent.generation('handle', params).generateNow();
    const checkpoint = paused.checkpoint as Checkpoint;
    expectScenario(paused.awaitingInput, `the ${turns}-turn conversation did not pause`);
    expectScenario(
      work.runs.lookup_order - before.lookup_order === turns,
      `lookup_order ran ${work.runs.lookup_order - before.lookup_order} times in ${turns} turns, expected ${turns}`,
    );
    const checkpointText = JSON.stringify(checkpoint);
    if (turns === 1) scenarioCheckpoint = checkpoint;
    const messagesText = JSON.stringify(checkpoint.messages);
    for (let index = 0; index < lookups; index += 1) {
      const id = `"call_lookup_${index}"`;
      if (occurrences(checkpointText, id) !== occurrences(messagesText, id)) storedOnce = false;
    }
    const answers = { [paused.inputRequests[0]?.toolCallId as string]: true };
    const done = await agent
      .generation('handle', params)
      .resumeNow({ checkpoint: JSON.parse(checkpointText), answers });
    expectScenario(done.text === FINAL_TEXT, `the ${turns}-turn conversation answered ${JSON.stringify(done.text)}`);
    expectScenario(
      work.runs.issue_refund - before.issue_refund === 1,
      `the refund did not run once after ${turns} turns`,
    );
    const checkpointBytes = Buffer.byteLength(checkpointText);
    const messagesBytes = bytes(checkpoint.messages);
    return {
      turns,
      checkpointBytes,
      messagesBytes,
      ratio: round(checkpointBytes / messagesBytes, 3),
      overheadBytes: checkpointBytes - messagesBytes,
    };
  }

  try {
    const scenario = await pauseAt(1);
    const bare = await createBareSdkLoop(baseURL).cycle(1);
    const aiSdk = aiSdkVariant(baseURL);
    await aiSdk.cycle(1);
    const aiSdkStateBytes = aiSdk.pausedBytes ?? 0;
    const aiSdkRatio = round(scenario.checkpointBytes / aiSdkStateBytes, 3);
    const nameless = namelessBytes(scenarioCheckpoint as Checkpoint);
    const growth: CheckpointSample[] = [];
    for (const turns of config.checkpointTurns) growth.push(await pauseAt(turns));
    const bytesPerTurn = growth.slice(1).map((sample, index) => {
      const previous = growth[index] as CheckpointSample;
      const added = (sample.checkpointBytes - previous.checkpointBytes) / (sample.turns - previous.turns);
      return { from: previous.turns, to: sample.turns, bytes: round(added, 1) };
    });
    const perTurn = bytesPerTurn.map((step) => step.bytes);
    const linearity = perTurn.length === 0 ? 1 : round(Math.max(...perTurn) / Math.min(...perTurn), 3);
    return {
      scenario: {
        ...scenario,
        goal: 1.5,
        met: aiSdkRatio <= 1.5,
        aiSdkStateBytes,
        aiSdkRatio,
        overheadByKey: overheadByKey(scenarioCheckpoint as Checkpoint),
        bareStateBytes: bare.pausedBytes,
        bareRatio: round(scenario.checkpointBytes / bare.pausedBytes, 3),
        namelessBytes: nameless,
        namelessRatio: round(nameless / scenario.messagesBytes, 3),
      },
      growth,
      bytesPerTurn,
      linearity,
      linear: linearity <= 1.1,
      storedOnce,
    };
  } finally {
    await runtime.close();
  }
}
