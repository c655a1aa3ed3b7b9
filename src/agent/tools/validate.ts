import { z } from 'zod';
import { formatValidation } from '../site-session.ts';
import type { RepositoryTool } from './tool-context.ts';

export const validateTool: RepositoryTool<Record<string, never>> = {
  description:
    'Check the documentation: Markdown/MDX syntax, navigation entries that point to missing pages, pages missing ' +
    'from navigation, and broken internal links. Run it after your changes and fix what it reports.',
  inputSchema: z.object({}) as unknown as z.ZodType<Record<string, never>>,
  async execute(_input, context) {
    return formatValidation(await context.validate());
  },
};
