import { getOctokit } from '@actions/github'

const dirPath = (dir: string): string => dir.replace(/^\/+|\/+$/g, '')

/**
 * The address GitHub.com serves a repository's Pages at, with `dir` under it: a
 * `<owner>.github.io` repository is the owner's site root, any other is a path under it. Null on
 * another server (GitHub Enterprise Server's Pages address depends on its configuration).
 */
export function derivedDashboardUrl(
  serverUrl: string,
  repository: string,
  dir: string
): string | null {
  if (serverUrl.replace(/\/+$/, '') !== 'https://github.com') return null
  const [owner, name] = repository.split('/')
  const host = `${owner.toLowerCase()}.github.io`
  const site = name.toLowerCase() === host ? `https://${host}/` : `https://${host}/${name}/`
  return `${site}${dirPath(dir)}/`
}

/**
 * Where the dashboard is, for the links of reports: `dashboard-url` when set; else the Pages
 * API's `html_url` (custom domains and Enterprise Server included), when the token may read it;
 * else the address derived for GitHub.com. Null when none is known: a report without a link
 * beats one with a wrong link.
 */
export async function dashboardUrl(o: {
  input: string | null
  repository: string
  dir: string
  serverUrl: string
  apiUrl: string
  token: string | null
}): Promise<string | null> {
  if (o.input) return o.input
  if (o.token) {
    const [owner, repo] = o.repository.split('/')
    try {
      const { data } = await getOctokit(o.token, { baseUrl: o.apiUrl }).rest.repos.getPages({
        owner,
        repo
      })
      if (data.html_url && /^https?:\/\//.test(data.html_url)) {
        return `${data.html_url.replace(/\/+$/, '')}/${dirPath(o.dir)}/`
      }
    } catch {
      // No Pages site yet, or a token without `pages: read`: the derived address stands.
    }
  }
  return derivedDashboardUrl(o.serverUrl, o.repository, o.dir)
}
