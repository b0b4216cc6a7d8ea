# Sourced by scripts/build and scripts/package: the version of the checked-out tree, from git.
#   a tag vX.Y on HEAD            X.Y
#   N commits after tag vX.Y      X.Y+gitN.HASH
#   no tag                        0.0+gitN.HASH  (N: commits in HEAD's history, so later builds
#                                 sort higher for dpkg)
# A tree with uncommitted changes gets ".dirty" appended; outside git the version is "unknown".
swell_version() {
    local describe tag since hash version
    git rev-parse --git-dir >/dev/null 2>&1 || { echo unknown; return; }
    hash=$(git rev-parse --short=7 HEAD)
    if describe=$(git describe --tags --match 'v[0-9]*' --long 2>/dev/null); then
        since=${describe%-g*}
        tag=${since%-*}
        since=${since##*-}
        version=${tag#v}
        ((since == 0)) || version+="+git$since.$hash"
    else
        version="0.0+git$(git rev-list --count HEAD).$hash"
    fi
    git update-index -q --refresh >/dev/null 2>&1 || true
    git diff-index --quiet HEAD -- 2>/dev/null || version+=".dirty"
    echo "$version"
}
