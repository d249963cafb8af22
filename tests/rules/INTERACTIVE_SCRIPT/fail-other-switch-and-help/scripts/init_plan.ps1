param(
    [Parameter(Mandatory = $true)]
    [string]$Objective,
    [string]$OutputPath = "PLAN.json",
    [switch]$Quiet,
    [switch]$Forceful
)

if ((Test-Path $OutputPath) -and -not $Quiet) {
    $ans = Read-Host "Overwrite? (y/n)"
    if ($ans -ne "y") { exit 0 }
}
Set-Content $OutputPath $Objective
