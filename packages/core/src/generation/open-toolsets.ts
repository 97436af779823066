import type { ResolvedPrompt } from '../agent/action.js';
import type { Tool } from '../tool/tool.js';

export interface OpenedPrompt {
  prompt: ResolvedPrompt;
  /** Closes every toolset that was opened; never throws (a close failure must not hide the run's outcome). */
  close(): Promise<void>;
}

/** Opens the prompt's toolsets and adds their tools; a name clash with another tool is a `TypeError`. */
export async function openToolsets(prompt: ResolvedPrompt): Promise<OpenedPrompt> {
  if (prompt.toolsets.length === 0) return { prompt, close: async () => {} };
  const opened: ResolvedPrompt['toolsets'] = [];
  const close = async () => {
    await Promise.allSettled(opened.map((toolset) => toolset.close()));
  };
  try {
    const tools = new Map<string, Tool>(prompt.tools);
    for (const toolset of prompt.toolsets) {
      const listed = await toolset.open();
      opened.push(toolset);
      for (const tool of listed) {
        if (tools.has(tool.name))
          throw new TypeError(`Tool ${tool.name} of ${toolset.name} clashes with another tool of the same name`);
        tools.set(tool.name, tool);
      }
    }
    return { prompt: { ...prompt, tools }, close };
  } catch (error) {
    await close();
    throw error;
  }
}
