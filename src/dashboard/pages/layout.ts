import type { Project } from '../../projects/project.ts';
import { html, type SafeHtml } from '../html.ts';

export type Section = 'keys' | 'jobs' | 'automations' | 'analytics' | 'settings';

const sections: { id: Section; label: string }[] = [
  { id: 'keys', label: 'API keys' },
  { id: 'jobs', label: 'Agent jobs' },
  { id: 'automations', label: 'Automations' },
  { id: 'analytics', label: 'Analytics' },
  { id: 'settings', label: 'Settings' },
];

export interface PageContext {
  email: string;
  csrfToken: string;
  project: Project | null;
  projects: Project[];
  section: Section | null;
}

export function csrfField(csrfToken: string): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${csrfToken}">`;
}

function document(title: string, body: SafeHtml, csrfToken: string | null): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
${csrfToken ? html`<meta name="csrf-token" content="${csrfToken}">` : ''}
<title>${title} · Quire</title>
<link rel="stylesheet" href="/dashboard/assets/dashboard.css">
<script type="module" src="/dashboard/assets/dashboard.js"></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<div id="loading-bar" class="loading-bar" hidden></div>
${body}
</body>
</html>
`;
}

/** A signed-in page: header with the project switcher and sections, then the content. */
export function renderPage(context: PageContext, title: string, content: SafeHtml): SafeHtml {
  const { project, projects } = context;
  const base = project ? `/dashboard/projects/${encodeURIComponent(project.id)}` : null;
  const header = html`<header class="top">
  <a class="brand" href="/dashboard">Quire</a>
  ${
    project
      ? html`<details class="switcher">
    <summary aria-label="Switch project">${project.name}</summary>
    <ul>${projects.map(
      (item) =>
        html`<li><a href="/dashboard/projects/${encodeURIComponent(item.id)}/${context.section ?? 'keys'}"${item.id === project.id ? html` aria-current="true"` : ''}>${item.name}</a></li>`,
    )}</ul>
  </details>`
      : ''
  }
  <nav aria-label="Sections">${
    base
      ? sections.map(
          (section) =>
            html`<a href="${base}/${section.id}"${section.id === context.section ? html` aria-current="page"` : ''}>${section.label}</a>`,
        )
      : ''
  }</nav>
  <form class="sign-out" method="post" action="/dashboard/sign-out">${csrfField(context.csrfToken)}<span class="muted">${context.email}</span> <button type="submit" class="link">Sign out</button></form>
</header>`;
  return document(title, html`${header}<main id="main">${content}</main>`, context.csrfToken);
}

/** A page outside the signed-in frame (sign-in, errors before sign-in). */
export function renderBarePage(title: string, content: SafeHtml): SafeHtml {
  return document(title, html`<main id="main" class="narrow">${content}</main>`, null);
}

/** A notice at the top of a page; `kind` error is announced by screen readers at once. */
export function notice(kind: 'success' | 'error' | 'info', text: string | SafeHtml): SafeHtml {
  return html`<div class="notice ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${text}</div>`;
}
