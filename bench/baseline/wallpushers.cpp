// wallpushers.cpp - plain BFS for UVa 10384 "The Wall Pushers" (baseline).
// A state is the player's square and the 24 cells' wall bits as a string;
// a std::map from state to its node, nodes with parent links, a FIFO.
#include <cstdio>
#include <map>
#include <queue>
#include <string>
#include <vector>
using namespace std;

const int R = 4, C = 6;
const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
const int bit[4] = {2, 8, 1, 4}; // N S W E
const int opp[4] = {8, 2, 4, 1};
const char name[4] = {'N', 'S', 'W', 'E'};

struct Node {
    string s; // s[0] = player square, s[1..24] = wall bits
    int parent;
    char move;
};

int main()
{
    int sc, sr;
    while (scanf("%d %d", &sc, &sr) == 2 && (sc || sr)) {
        string s(1 + R * C, 0);
        s[0] = (char)((sr - 1) * C + (sc - 1));
        for (int i = 0; i < R * C; i++) {
            int v;
            scanf("%d", &v);
            s[1 + i] = (char)v;
        }
        vector<Node> nodes;
        map<string, int> seen;
        queue<int> q;
        nodes.push_back({s, -1, 0});
        seen[s] = 0;
        q.push(0);
        int end = -1;
        char last = 0;
        while (!q.empty() && end < 0) {
            int at = q.front();
            q.pop();
            for (int d = 0; d < 4 && end < 0; d++) {
                string t = nodes[at].s;
                int p = t[0], r = p / C, c = p % C;
                int nr = r + dr[d], nc = c + dc[d];
                bool inside = nr >= 0 && nc >= 0 && nr < R && nc < C;
                if (!(t[1 + p] & bit[d])) {
                    if (!inside) {
                        end = at;
                        last = name[d];
                        break;
                    }
                } else {
                    if (!inside)
                        continue;
                    int b = nr * C + nc;
                    if (t[1 + b] & bit[d])
                        continue;
                    t[1 + p] &= (char)~bit[d];
                    t[1 + b] &= (char)~opp[d];
                    t[1 + b] |= (char)bit[d];
                    int fr = nr + dr[d], fc = nc + dc[d];
                    if (fr >= 0 && fc >= 0 && fr < R && fc < C)
                        t[1 + fr * C + fc] |= (char)opp[d];
                }
                t[0] = (char)(nr * C + nc);
                if (seen.count(t))
                    continue;
                seen[t] = (int)nodes.size();
                nodes.push_back({t, at, name[d]});
                q.push((int)nodes.size() - 1);
            }
        }
        if (end < 0) {
            printf("Impossible\n");
            continue;
        }
        string path(1, last);
        for (int v = end; nodes[v].parent >= 0; v = nodes[v].parent)
            path.insert(path.begin(), nodes[v].move);
        printf("%s\n", path.c_str());
    }
    return 0;
}
